/**
 * `/work connect me [apiKey]`, `/work disconnect me`: a person's own service key, so that
 * what they change is done as them (see context/acting.ts). Without a key, `connect me`
 * opens the "Connect your account" modal. Anyone may connect their own key — guests and
 * Slack Connect people included: with it they act as themselves.
 */
import type { Subcommand } from '../commands/router.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { slackErrorCode } from '../ui/error-text.js';
import { ownKeyModal } from './connect-me-modal.js';
import { checkOwnKey, saveOwnKey } from './own-key.js';
import { settingsCommands } from './settings.js';

const connectMe: Subcommand = {
  name: 'connect me',
  group: 'Workspace',
  usage: 'connect me [apiKey]',
  example: 'connect me',
  summary: 'act as yourself in the service, with your own API key',
  async run(ctx, args) {
    const apiKey = args.text.trim();
    if (!apiKey) {
      await openOwnKeyModal(ctx);
      return;
    }
    const check = await checkOwnKey(ctx.deps, ctx, apiKey);
    if (!check.ok) {
      await ctx.reply(`${check.message} Nothing was saved.`);
      return;
    }
    await ctx.reply(await saveOwnKey(ctx, apiKey, check.verification));
  },
};

/** Opens "Connect your account" (the sandbox fills in the person's demo key). */
export async function openOwnKeyModal(ctx: WorkContext): Promise<void> {
  if (!ctx.triggerId) {
    await ctx.reply('Run `/work connect me <apiKey>` to connect your own account in one step.');
    return;
  }
  const workspace = ctx.connection?.workspaceName ?? 'the work-management workspace';
  const demoKey = await ctx.deps.demoKeys?.(ctx.teamId, ctx.userId);
  try {
    await ctx.slack.views.open({
      trigger_id: ctx.triggerId,
      view: ownKeyModal(
        { channelId: ctx.channelId, responseUrl: ctx.responseUrl },
        workspace,
        demoKey,
      ),
    });
  } catch (e) {
    await ctx.reply(
      `Could not open the form (${slackErrorCode(e)}). You can connect in one step with \`/work connect me <apiKey>\`.`,
    );
  }
}

const disconnectMe: Subcommand = {
  name: 'disconnect me',
  group: 'Workspace',
  usage: 'disconnect me',
  example: 'disconnect me',
  summary: 'forget your own API key (you then act as the workspace allows)',
  needsConnection: false,
  takesNothing: true,
  async run(ctx) {
    await ctx.reply(await forgetOwnKey(ctx));
  },
};

/** Forgets the person's own key; the sentence to show. */
export async function forgetOwnKey(ctx: WorkContext): Promise<string> {
  const removed = await ctx.store.personalKeys.delete(ctx.teamId, ctx.userId);
  if (!removed) return 'You have no API key of your own connected, so nothing was changed.';
  ctx.logger.info(`Team ${ctx.teamId}: ${ctx.userId} disconnected their own key.`);
  const ws = esc(ctx.connection?.workspaceName ?? 'the work-management workspace');
  return `Forgot your own API key. Nothing was changed in *${ws}*; from now on you act as this Slack workspace allows (\`/work me\` says how).`;
}

export const identityCommands: Subcommand[] = [connectMe, disconnectMe, ...settingsCommands];
