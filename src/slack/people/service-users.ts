/**
 * Who is who across Slack and the service, for the task features: the service's workspace
 * users and their Slack accounts. Both come from the notifications' directory and matcher,
 * so a card's mentions, a DM's recipient and `/work link` always agree, with one cache each.
 */

import type { WorkspaceUser } from '../../workapi/contract.js';
import { errMessage } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';

/** The service's workspace users (cached briefly per team). */
export async function workspaceUsers(ctx: WorkContext): Promise<WorkspaceUser[]> {
  return [...(await ctx.deps.directory.usersOf(ctx.teamId, ctx.work)).values()];
}

/** The Slack user for a service e-mail: an explicit link, else the same e-mail in Slack. */
export async function slackUserIdForEmail(
  ctx: WorkContext,
  email: string | undefined,
): Promise<string | undefined> {
  try {
    const match = await ctx.deps.matcher.match(ctx.slack, ctx.teamId, email);
    return match.kind === 'matched' ? match.slackUserId : undefined;
  } catch (e) {
    // A mention is a nicety: a failed lookup shows the service name instead.
    ctx.logger.debug(`Matching ${email ?? 'a user'} to Slack failed: ${errMessage(e)}`);
    return undefined;
  }
}

/** Slack user ids for service users, by e-mail (in parallel, cached). */
export async function slackIdsFor(
  ctx: WorkContext,
  users: readonly WorkspaceUser[],
): Promise<Map<string, string>> {
  const pairs = await Promise.all(
    users.map(async (u) => [u.id, await slackUserIdForEmail(ctx, u.email)] as const),
  );
  const out = new Map<string, string>();
  for (const [id, slackId] of pairs) if (slackId) out.set(id, slackId);
  return out;
}

export function sameEmail(a: string | undefined, b: string | undefined): boolean {
  return Boolean(a && b && a.trim().toLowerCase() === b.trim().toLowerCase());
}

export function userByEmail(
  users: readonly WorkspaceUser[],
  email: string | undefined,
): WorkspaceUser | undefined {
  return users.find((u) => sameEmail(u.email, email));
}

const compact = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Service users a typed `@handle` may mean, best tier first: the whole e-mail, the e-mail's
 * local part, the whole name without spaces, the first name. An empty list: nobody.
 */
export function usersForHandle(users: readonly WorkspaceUser[], handle: string): WorkspaceUser[] {
  const h = handle.trim().toLowerCase();
  if (!h) return [];
  const tiers: ((u: WorkspaceUser) => boolean)[] = [
    (u) => sameEmail(u.email, h),
    (u) => !h.includes('@') && (u.email ?? '').toLowerCase().split('@')[0] === h,
    (u) => compact(u.name ?? '') !== '' && compact(u.name ?? '') === compact(h),
    (u) => (u.name ?? '').trim().split(/\s+/)[0]?.toLowerCase() === h,
  ];
  for (const tier of tiers) {
    const found = users.filter(tier);
    if (found.length > 0) return found;
  }
  return [];
}

/** A workspace user's name, else e-mail, else id. */
export function userName(u: WorkspaceUser): string {
  return u.name?.trim() || u.email?.trim() || u.id;
}
