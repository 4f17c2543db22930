/**
 * Who is who across Slack and the service: the service's workspace users (listUsers, cached
 * for a minute per team), Slack users by e-mail (users.lookupByEmail, cached), and the rules
 * that turn `/work add … @bob` into service user ids.
 */
import type { WorkspaceUser } from '../../workapi/contract.js';
import type { WorkContext, WorklinkDeps } from '../context.js';

const USERS_TTL_MS = 60_000;
const EMAIL_TTL_MS = 10 * 60_000;
const MISS_TTL_MS = 60_000;

interface Cached<T> {
  at: number;
  ttl: number;
  value: Promise<T>;
}

/** Caches live beside the app's deps, so two apps in one process never share them. */
const caches = new WeakMap<WorklinkDeps, Map<string, Cached<unknown>>>();

function cached<T>(deps: WorklinkDeps, key: string, ttl: number, load: () => Promise<T>) {
  let map = caches.get(deps);
  if (!map) {
    map = new Map();
    caches.set(deps, map);
  }
  const hit = map.get(key) as Cached<T> | undefined;
  if (hit && Date.now() - hit.at < hit.ttl) return hit.value;
  const value = load();
  const entry: Cached<T> = { at: Date.now(), ttl, value };
  map.set(key, entry);
  // A failed load is not remembered: the next ask tries again.
  value.catch(() => {
    if (map.get(key) === entry) map.delete(key);
  });
  return value;
}

/** The service's workspace users (cached for a minute per team and workspace). */
export function workspaceUsers(ctx: WorkContext): Promise<WorkspaceUser[]> {
  const workspace = ctx.connection?.workspaceId ?? '';
  return cached(ctx.deps, `users:${ctx.teamId}:${workspace}`, USERS_TTL_MS, () =>
    ctx.work.listUsers(),
  );
}

/** Forgets the cached users (after a change is suspected, and in tests). */
export function forgetWorkspaceUsers(ctx: WorkContext): void {
  caches.get(ctx.deps)?.delete(`users:${ctx.teamId}:${ctx.connection?.workspaceId ?? ''}`);
}

/** The Slack user with this e-mail in this team, or undefined (cached, misses briefly). */
export async function slackUserIdForEmail(
  ctx: WorkContext,
  email: string | undefined,
): Promise<string | undefined> {
  const address = email?.trim().toLowerCase();
  if (!address) return undefined;
  const key = `email:${ctx.teamId}:${address}`;
  try {
    return await cached(ctx.deps, key, EMAIL_TTL_MS, async () => {
      try {
        const res = await ctx.slack.users.lookupByEmail({ email: address });
        return res.user?.id;
      } catch (e) {
        if ((e as { data?: { error?: string } }).data?.error === 'users_not_found') {
          return undefined;
        }
        throw e;
      }
    }).then((id) => {
      // Remember a miss for a shorter time: the person may join Slack soon.
      if (id === undefined) {
        const entry = caches.get(ctx.deps)?.get(key);
        if (entry) entry.ttl = MISS_TTL_MS;
      }
      return id;
    });
  } catch {
    // A mention is a nicety: a failed lookup shows the service name instead.
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
