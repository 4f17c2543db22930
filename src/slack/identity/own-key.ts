/**
 * A person's own service key (`/work connect me`, the Home tab's "Connect your account"):
 * checked with the service's verify first — it must belong to the service workspace this
 * Slack workspace is connected to, and name its user (`createdBy`) — then stored sealed.
 * Nothing is stored when a check fails. The key never appears in a message or a log.
 */
import type { Verification } from '../../workapi/contract.js';
import { checkKey, keyProblem } from '../connection/commands.js';
import type { WorklinkDeps } from '../context/deps.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { NOT_CONNECTED } from '../ui/error-text.js';

export type OwnKeyCheck = { ok: true; verification: Verification } | { ok: false; message: string };

/** Whether `apiKey` may be `ctx`'s person's own key; the sentence when not. */
export async function checkOwnKey(
  deps: WorklinkDeps,
  ctx: Pick<WorkContext, 'connection'>,
  apiKey: string,
  timeoutMs?: number,
): Promise<OwnKeyCheck> {
  const problem = keyProblem(apiKey);
  if (problem) return { ok: false, message: problem };
  const workspace = ctx.connection;
  if (!workspace) return { ok: false, message: NOT_CONNECTED };
  const check = await checkKey(deps, apiKey, timeoutMs);
  if (!check.ok) return check;
  const v = check.verification;
  if (v.workspaceId !== workspace.workspaceId) {
    const other = v.workspaceName ? `*${esc(v.workspaceName)}*` : 'another workspace';
    return {
      ok: false,
      message: `This key belongs to ${other}, but this Slack workspace is connected to *${esc(workspace.workspaceName)}*. Make a key in *${esc(workspace.workspaceName)}* (your account settings there).`,
    };
  }
  if (!v.createdBy) {
    return {
      ok: false,
      message: 'The service did not say whose key this is, so Worklink cannot act as you with it.',
    };
  }
  return check;
}

/** Stores the checked key as `ctx`'s person's own; the sentence to show. */
export async function saveOwnKey(
  ctx: WorkContext,
  apiKey: string,
  v: Verification,
): Promise<string> {
  const serviceUserId = v.createdBy ?? '';
  const replaced = await ctx.store.personalKeys.save({
    teamId: ctx.teamId,
    slackUserId: ctx.userId,
    serviceUserId,
    apiKey,
    connectedAt: Date.now(),
  });
  ctx.logger.info(`Team ${ctx.teamId}: ${ctx.userId} connected their own key.`);
  const who = await serviceUserName(ctx, serviceUserId);
  const ws = esc(ctx.connection?.workspaceName ?? v.workspaceName ?? v.workspaceId);
  return `Connected your own account: what you change with Worklink is now done as *${esc(who)}* in *${ws}*, and your comments carry no “via Slack” line.${replaced ? ' The new key replaces your old one.' : ''} \`/work disconnect me\` forgets it.`;
}

/** A service user's name (the cached directory), else their id. */
export async function serviceUserName(ctx: WorkContext, serviceUserId: string): Promise<string> {
  try {
    const users = await ctx.deps.directory.usersOf(ctx.teamId, ctx.work);
    return users.get(serviceUserId)?.name || serviceUserId;
  } catch {
    // The name is a nicety: the id says the same.
    return serviceUserId;
  }
}
