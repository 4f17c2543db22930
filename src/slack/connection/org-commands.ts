/**
 * `/work connect org <apiKey>` and `/work disconnect org`: one service key for every workspace
 * of an Enterprise Grid organisation, when its admin prefers that to a key per workspace
 * (context/org-connection.ts says how workspaces take it up). Only in a workspace of an
 * organisation; the same people as `/work connect` may run them. A workspace that connected
 * its own key keeps it.
 */
import type { Connection } from '../../store/index.js';
import type { Subcommand } from '../commands/router.js';
import { orgConnection, orgCopies } from '../context/org-connection.js';
import { canManageConnection } from '../context/permissions.js';
import type { WorkContext } from '../context/work-context.js';
import { esc, plural } from '../format/text.js';
import { checkKey, keyProblem } from './commands.js';

const NOT_IN_ORG =
  'This Slack workspace is not part of an Enterprise Grid organisation (or Worklink was installed on it alone), so there is no organisation to connect. Use `/work connect` for this workspace.';

async function allowed(ctx: WorkContext, verb: string): Promise<string | undefined> {
  if (!ctx.enterpriseId?.startsWith('E')) return NOT_IN_ORG;
  const permission = await canManageConnection(ctx, verb);
  return permission.allowed ? undefined : permission.message;
}

const connectOrg: Subcommand = {
  name: 'connect org',
  adminOnly: true,
  group: 'Workspace',
  usage: 'connect org <apiKey>',
  example: 'connect org <apiKey>',
  summary: 'connect every workspace of your Enterprise organisation with one key (admins)',
  needsConnection: false,
  async run(ctx, args) {
    const apiKey = args.text.trim();
    const problem = keyProblem(apiKey);
    if (problem) {
      await ctx.reply(`${problem} Nothing was saved. Usage: \`/work connect org <apiKey>\`.`);
      return;
    }
    const refusal = await allowed(ctx, 'connect org');
    if (refusal) return void (await ctx.reply(refusal));
    const check = await checkKey(ctx.deps, apiKey);
    if (!check.ok) return void (await ctx.reply(`${check.message} Nothing was saved.`));
    const orgId = ctx.enterpriseId ?? '';
    const { store } = ctx.deps;
    const previous = await orgConnection(store, orgId);
    const v = check.verification;
    const org: Connection = {
      teamId: orgId,
      enterpriseId: orgId,
      workspaceId: v.workspaceId,
      workspaceName: v.workspaceName || v.workspaceId,
      keyOwnerId: v.createdBy,
      apiKey,
      connectedBy: ctx.userId,
      connectedAt: new Date().toISOString(),
    };
    // The workspaces that used the old key (and this one, when it has none) take the new one.
    const copies = previous ? await orgCopies(store, previous) : [];
    if (!ctx.connection || copies.includes(ctx.teamId)) copies.push(ctx.teamId);
    await store.connections.save(org);
    for (const teamId of new Set(copies)) {
      await store.connect({ ...org, teamId });
    }
    ctx.logger.info(`Organisation ${orgId} connected to ${v.workspaceId} by ${ctx.userId}.`);
    const own = ctx.connection && !copies.includes(ctx.teamId);
    await ctx.reply(
      `Connected the organisation to *${esc(org.workspaceName)}*: every workspace of it that has not connected its own key uses this one${own ? ' (this workspace keeps its own; `/work disconnect` here, then any command, switches it to the organisation’s)' : ''}. A workspace admin can still connect a key of their own with \`/work connect\`.`,
    );
  },
};

const disconnectOrg: Subcommand = {
  name: 'disconnect org',
  adminOnly: true,
  group: 'Workspace',
  usage: 'disconnect org',
  example: 'disconnect org',
  summary: 'remove the organisation’s key from every workspace that uses it (admins)',
  needsConnection: false,
  async run(ctx) {
    const refusal = await allowed(ctx, 'disconnect org');
    if (refusal) return void (await ctx.reply(refusal));
    const { store } = ctx.deps;
    const org = await orgConnection(store, ctx.enterpriseId);
    if (!org) {
      await ctx.reply(
        'The organisation has no connection of its own, so there is nothing to disconnect.',
      );
      return;
    }
    const copies = await orgCopies(store, org);
    for (const teamId of copies) await store.forgetTeam(teamId);
    await store.forgetTeam(org.teamId);
    if (copies.includes(ctx.teamId)) ctx.connection = undefined;
    ctx.logger.info(`Organisation ${org.teamId} disconnected by ${ctx.userId}.`);
    await ctx.reply(
      `Disconnected the organisation from *${esc(org.workspaceName)}*: removed its key from ${plural(copies.length, 'workspace')} that used it. Workspaces with their own key keep it. Nothing was changed in the work-management service.`,
    );
  },
};

export const orgConnectionCommands: Subcommand[] = [connectOrg, disconnectOrg];
