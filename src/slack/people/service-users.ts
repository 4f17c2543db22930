/**
 * Who is who across Slack and the service, for the task features: the service's workspace
 * users and their Slack accounts. Both come from the notifications' directory and matcher,
 * so a card's mentions, a DM's recipient and `/work link` always agree, with one cache each.
 */

import type { WorkspaceUser } from '../../workapi/contract.js';
import { errMessage } from '../context/error-replies.js';
import type { Priority } from '../context/slack-limiter.js';
import type { TeamReader } from '../context/team-scope.js';

/** The service's workspace users (cached briefly per team). */
export async function workspaceUsers(
  ctx: Pick<TeamReader, 'teamId' | 'work' | 'deps'>,
): Promise<WorkspaceUser[]> {
  return [...(await ctx.deps.directory.usersOf(ctx.teamId, ctx.work)).values()];
}

/** The Slack user for a service e-mail: an explicit link, else the same e-mail in Slack. */
export async function slackUserIdForEmail(
  ctx: TeamReader,
  email: string | undefined,
  priority: Priority = 'normal',
): Promise<string | undefined> {
  try {
    const match = await ctx.deps.matcher.match(ctx.slack, ctx.teamId, email, undefined, priority);
    return match.kind === 'matched' ? match.slackUserId : undefined;
  } catch (e) {
    // A mention is a nicety: a failed lookup shows the service name instead.
    ctx.logger.debug(`Matching ${email ?? 'a user'} to Slack failed: ${errMessage(e)}`);
    return undefined;
  }
}

/** How long an answer waits for its people's Slack accounts before naming the rest. */
export const LOOKUP_WAIT_MS = 2_000;

/**
 * Slack user ids for service users, by e-mail (cached; the look-ups go through the team's
 * limiter, src/slack/shared/slack-limiter.ts). Waits at most `waitMs`: a task with 80
 * assignees is answered with the people found by then (the rest by name), and the look-ups
 * go on in the background, so the next answer has them.
 */
export async function slackIdsFor(
  ctx: TeamReader,
  users: readonly WorkspaceUser[],
  waitMs = LOOKUP_WAIT_MS,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const all = Promise.all(
    users.map(async (u) => {
      const slackId = await slackUserIdForEmail(ctx, u.email, users.length > 1 ? 'bulk' : 'normal');
      if (slackId) out.set(u.id, slackId);
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const enough = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  await Promise.race([all, enough]);
  clearTimeout(timer);
  // A copy: look-ups that end later must not change an answer being built.
  return new Map(out);
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
