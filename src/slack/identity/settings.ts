/**
 * `/work settings` (admins change, everyone may look) and the admin's Home section: the
 * two policies of store/tables/team-settings/ —
 *   members  attributed | read-only   what members without their own key may change
 *   links    admins | everyone         who links channels and turns feeds on or off
 */

import {
  LINKS_POLICIES,
  type LinksPolicy,
  MEMBERS_POLICIES,
  type MembersPolicy,
  type TeamSettings,
} from '../../store/index.js';
import type { Subcommand } from '../commands/router.js';
import { requireAdmin } from '../context/permissions.js';
import type { WorkContext } from '../context/work-context.js';

export const MEMBERS_TEXT: Record<MembersPolicy, string> = {
  attributed:
    'members without their own key change things through the workspace’s connection, named in what they write',
  'read-only': 'members without their own key can only look; changing things needs their own key',
};

export const LINKS_TEXT: Record<LinksPolicy, string> = {
  admins: 'only admins link channels to projects and turn feeds on or off',
  everyone: 'everyone (not guests) links channels to projects and turns feeds on or off',
};

const USAGE =
  '`/work settings members attributed|read-only` or `/work settings links admins|everyone`';

export function settingsText(s: TeamSettings): string {
  return [
    '*Worklink settings for this Slack workspace*',
    `• \`members ${s.members}\`: ${MEMBERS_TEXT[s.members]}.`,
    `• \`links ${s.links}\`: ${LINKS_TEXT[s.links]}.`,
    'Guests and people of other organisations never act through the workspace’s connection; with their own key (`/work connect me`) they act as themselves.',
  ].join('\n');
}

const isMembers = (v: string): v is MembersPolicy => MEMBERS_POLICIES.some((p) => p === v);
const isLinks = (v: string): v is LinksPolicy => LINKS_POLICIES.some((p) => p === v);

/** Sets one policy as an admin; the sentence to show (a refusal, or what changed). */
export async function changeSetting(
  ctx: WorkContext,
  name: string,
  value: string,
): Promise<string> {
  const change: Partial<TeamSettings> | undefined =
    name === 'members' && isMembers(value)
      ? { members: value }
      : name === 'links' && isLinks(value)
        ? { links: value }
        : undefined;
  if (!change) return `Use ${USAGE}; nothing was changed.`;
  const permission = await requireAdmin(
    ctx,
    'Sorry, only Slack workspace admins and owners can change Worklink’s settings. Nothing was changed.',
  );
  if (!permission.allowed) return permission.message;
  const now = await ctx.store.teamSettings.set(ctx.teamId, change, ctx.userId);
  ctx.logger.info(`Team ${ctx.teamId}: ${ctx.userId} set ${name} to ${value}.`);
  const what = change.members ? MEMBERS_TEXT[now.members] : LINKS_TEXT[now.links];
  return `Saved: \`${name} ${value}\` — ${what}.`;
}

const settingsCommand: Subcommand = {
  name: 'settings',
  adminOnly: true,
  group: 'Workspace',
  usage: 'settings [members attributed|read-only] [links admins|everyone]',
  example: 'settings members read-only',
  summary: 'who may change what through Worklink (admins change them)',
  needsConnection: false,
  async run(ctx, args) {
    const words = args.words.map((w) => w.toLowerCase());
    if (words.length === 0) {
      await ctx.reply(settingsText(await ctx.store.teamSettings.get(ctx.teamId)));
      return;
    }
    if (words.length !== 2) {
      await ctx.reply(`Use ${USAGE}; nothing was changed.`);
      return;
    }
    await ctx.reply(await changeSetting(ctx, words[0] ?? '', words[1] ?? ''));
  },
};

export const settingsCommands: Subcommand[] = [settingsCommand];
