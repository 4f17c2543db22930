/**
 * Connection subcommands: `/work connect [key]`, `/work status`, `/work disconnect`
 * (`/work help` is the router's). This file is also the worked example of the subcommand
 * convention (see src/slack/commands/router.ts): a plain Subcommand object per command, ctx
 * for everything, ctx.reply to answer; src/slack/app.ts hands the list to the router.
 */
import type { Connection } from '../../store/index.js';
import { isWorkApiError, type WorkApiError } from '../../workapi/client.js';
import type { Verification } from '../../workapi/contract.js';
import type { Subcommand } from '../commands/router.js';
import type { WorklinkDeps } from '../context/deps.js';
import { errMessage } from '../context/error-replies.js';
import { canManageConnection } from '../context/permissions.js';
import type { WorkContext } from '../context/work-context.js';
import { formatMoment } from '../format/date-text.js';
import { esc, plural } from '../format/text.js';
import { section } from '../ui/blocks.js';
import {
  describeWorkError,
  KEY_UNREADABLE,
  NOT_CONNECTED,
  slackErrorCode,
} from '../ui/error-text.js';
import { noticeModal } from '../ui/notice-modal.js';
import { connectModal } from './connect-modal.js';

// ── Status sections (other features add lines to /work status) ───────────────

/** Returns mrkdwn lines for `/work status`, or undefined to add nothing. */
export type StatusSection = (ctx: WorkContext) => Promise<string | undefined> | string | undefined;

// ── Key checking and saving (shared with the connect modal) ─────────────────

export type KeyCheck =
  | { ok: true; verification: Verification }
  | { ok: false; message: string; error?: WorkApiError };

/** verify() with a key that is not stored yet. The key never appears in the message. */
export async function checkKey(
  deps: WorklinkDeps,
  apiKey: string,
  timeoutMs?: number,
): Promise<KeyCheck> {
  try {
    const verification = await deps.workClients.adHoc(apiKey, timeoutMs).verify();
    return { ok: true, verification };
  } catch (e) {
    if (!isWorkApiError(e)) throw e;
    // Escaped: the service's words go into mrkdwn replies (the modal decodes them back).
    const reason = esc(e.message.split(apiKey).join('[key]'));
    if (e.kind === 'auth' || e.kind === 'invalid') {
      return { ok: false, message: `The service did not accept this key: ${reason}`, error: e };
    }
    return {
      ok: false,
      message: `The key could not be checked: ${describeWorkError(e, { action: 'check the key' }).replace(/^Could not check the key: /, '')}`,
      error: e,
    };
  }
}

/** A key must look like one before it is sent anywhere. */
export function keyProblem(apiKey: string): string | undefined {
  if (!apiKey) return 'Paste an API key to connect.';
  if (/\s/.test(apiKey)) return 'An API key has no spaces; paste just the key.';
  if (apiKey.length > 500) return 'That is too long to be an API key.';
  return undefined;
}

/**
 * Stores the verified connection and returns the sentence to show. Connecting a different
 * service workspace drops the old one's channel links and remembered projects.
 */
export async function saveConnection(
  ctx: WorkContext,
  apiKey: string,
  v: Verification,
): Promise<string> {
  const { store } = ctx.deps;
  const name = v.workspaceName || v.workspaceId;
  const connection: Connection = {
    teamId: ctx.teamId,
    enterpriseId: ctx.enterpriseId,
    workspaceId: v.workspaceId,
    workspaceName: name,
    keyOwnerId: v.createdBy,
    apiKey,
    connectedBy: ctx.userId,
    connectedAt: new Date().toISOString(),
  };
  const { previous, switched } = await store.connect(connection);
  ctx.connection = connection;
  ctx.logger.info(`Team ${ctx.teamId} connected to service workspace ${v.workspaceId}.`);
  const replaced = previous
    ? switched
      ? ` This replaces the connection to *${esc(previous.workspaceName)}*; its channel links were removed.`
      : ' The new key replaces the old one.'
    : '';
  return `Connected Worklink to *${esc(name)}*. Everyone here can now use \`/work\` — try \`/work help\`.${replaced}`;
}

// ── Subcommands ─────────────────────────────────────────────────────────────

const connectCommand: Subcommand = {
  name: 'connect',
  adminOnly: true,
  group: 'Workspace',
  usage: 'connect [apiKey]',
  example: 'connect',
  summary: 'connect this Slack workspace to your work-management workspace (admins)',
  needsConnection: false,
  async run(ctx, args) {
    const key = args.text.trim();
    if (key) {
      await connectWithKey(ctx, key);
      return;
    }
    await openConnectModal(ctx);
  },
};

async function connectWithKey(ctx: WorkContext, apiKey: string): Promise<void> {
  const problem = keyProblem(apiKey);
  if (problem) {
    await ctx.reply(`${problem} Nothing was saved.`);
    return;
  }
  const permission = await canManageConnection(ctx);
  if (!permission.allowed) {
    await ctx.reply(permission.message);
    return;
  }
  const check = await checkKey(ctx.deps, apiKey);
  if (!check.ok) {
    await ctx.reply(`${check.message} Nothing was saved.`);
    return;
  }
  await ctx.reply(await saveConnection(ctx, apiKey, check.verification));
}

async function openConnectModal(ctx: WorkContext): Promise<void> {
  if (!ctx.triggerId) {
    await ctx.reply('Run `/work connect <apiKey>` to connect in one step.');
    return;
  }
  // The trigger expires 3 s after the command: open first, check the role meanwhile.
  const permission = canManageConnection(ctx);
  let viewId: string | undefined;
  try {
    const opened = await ctx.slack.views.open({
      trigger_id: ctx.triggerId,
      view: connectModal({ channelId: ctx.channelId, responseUrl: ctx.responseUrl }),
    });
    viewId = opened.view?.id;
  } catch (e) {
    await permission.catch(() => undefined);
    await ctx.reply(
      `Could not open the connect form (${slackErrorCode(e)}). You can connect in one step with \`/work connect <apiKey>\`.`,
    );
    return;
  }
  const allowed = await permission;
  if (!allowed.allowed && viewId) {
    await ctx.slack.views.update({
      view_id: viewId,
      view: noticeModal('Connect Worklink', allowed.message),
    });
  }
}

function statusCommand(statusSections: readonly StatusSection[]): Subcommand {
  return {
    name: 'status',
    group: 'Workspace',
    usage: 'status',
    example: 'status',
    summary: 'show which workspace Worklink is connected to, by whom and since when',
    needsConnection: false,
    async run(ctx) {
      // The context read the connection already; a key it could not decrypt still has a row.
      const info = ctx.connection ?? (await ctx.store.connections.info(ctx.teamId));
      if (!info) {
        await ctx.reply(NOT_CONNECTED);
        return;
      }
      const tz = await ctx.userTimeZone();
      const lines = [
        `*Connected to ${esc(info.workspaceName)}* (workspace \`${info.workspaceId}\`)`,
        `Connected by <@${info.connectedBy}> on ${formatMoment(info.connectedAt, tz)}.`,
        await keyStatus(ctx),
        await channelStatus(ctx),
      ];
      for (const section of statusSections) {
        try {
          const text = await section(ctx);
          if (text) lines.push(text);
        } catch (e) {
          ctx.logger.warn(`A /work status section failed: ${errMessage(e)}`);
          lines.push('_Some figures are unavailable right now._');
        }
      }
      const text = lines.join('\n');
      await ctx.reply({
        text,
        blocks: [section(text)],
      });
    },
  };
}

async function keyStatus(ctx: WorkContext): Promise<string> {
  if (ctx.connectionUnreadable) return `:warning: ${KEY_UNREADABLE}`;
  try {
    await ctx.work.verify();
    return ':white_check_mark: The service accepts the API key.';
  } catch (e) {
    return `:warning: ${describeWorkError(e, { action: 'check the API key' })}`;
  }
}

async function channelStatus(ctx: WorkContext): Promise<string> {
  if (!ctx.channelId) return '';
  const link = await ctx.store.channelProjects.get(ctx.teamId, ctx.channelId);
  if (!link) {
    return 'This channel has no default project (`/work project link <projectId>` sets one).';
  }
  const name = (await ctx.store.knownProjects.get(ctx.teamId, link.projectId))?.projectName;
  return `This channel’s default project: *${esc(name ?? link.projectId)}* (\`${esc(link.projectId)}\`).`;
}

const disconnectCommand: Subcommand = {
  name: 'disconnect',
  adminOnly: true,
  group: 'Workspace',
  usage: 'disconnect',
  example: 'disconnect',
  summary: 'remove the API key and channel links (admins)',
  needsConnection: false,
  async run(ctx) {
    // The context read the connection already; a key it could not decrypt still has a row.
    const info = ctx.connection ?? (await ctx.store.connections.info(ctx.teamId));
    if (!info) {
      await ctx.reply('Worklink is not connected, so there is nothing to disconnect.');
      return;
    }
    const permission = await canManageConnection(ctx, 'disconnect');
    if (!permission.allowed) {
      await ctx.reply(permission.message);
      return;
    }
    const removed = await ctx.deps.store.forgetTeam(ctx.teamId);
    ctx.connection = undefined;
    ctx.logger.info(`Team ${ctx.teamId} disconnected from ${info.workspaceId} by ${ctx.userId}.`);
    const links = plural(removed.links, 'channel link');
    await ctx.reply(
      `Disconnected Worklink from *${esc(info.workspaceName)}*: removed the API key and ${links}. Nothing was changed in the work-management service.`,
    );
  },
};

/** `/work connect`, `status` and `disconnect`; `statusSections` add lines to the status. */
export function connectionCommands(statusSections: readonly StatusSection[]): Subcommand[] {
  return [connectCommand, statusCommand(statusSections), disconnectCommand];
}
