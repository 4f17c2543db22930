/**
 * users.info, cached: time zones, admin flags, e-mails of the people who act, and what the
 * acting seam needs to know who may write (guests; people of another organisation).
 */

import type { UsersInfoResponse, WebClient } from '@slack/web-api';
import { BoundedCache } from '../../bounded-cache.js';
import { slackLimiter } from './slack-limiter.js';

export interface SlackUser {
  id: string;
  tz?: string;
  isAdmin: boolean;
  isOwner: boolean;
  email?: string;
  name?: string;
  /** A multi- or single-channel guest (is_restricted / is_ultra_restricted). */
  isGuest: boolean;
  /** The user's own team and organisation (Slack Connect people have another). */
  teamId?: string;
  enterpriseId?: string;
  /** Slack says the user is a stranger to this workspace (an external user it knows little of). */
  isStranger: boolean;
}

/**
 * Whether `user` belongs to another organisation than the team `teamId` (of `enterpriseId`):
 * a Slack Connect person. People of another workspace in the same Enterprise Grid are not.
 */
export function isForeign(user: SlackUser, teamId: string, enterpriseId?: string): boolean {
  if (user.isStranger) return true;
  if (!user.teamId || user.teamId === teamId) return false;
  return !(enterpriseId && user.enterpriseId === enterpriseId);
}

/** users.info with a short, bounded cache; concurrent asks for one user share one call. */
export class SlackUserDirectory {
  private readonly cache: BoundedCache<string, Promise<SlackUser>>;
  constructor(ttlMs = 5 * 60_000, maxPeople = 10_000) {
    this.cache = new BoundedCache('slack_users', maxPeople, ttlMs);
  }

  get(client: WebClient, teamId: string, userId: string): Promise<SlackUser> {
    const key = `${teamId}:${userId}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const user = slackLimiter
      .call<UsersInfoResponse>(client, teamId, 'users.info', { user: userId })
      .then((r) => ({
        id: userId,
        tz: r.user?.tz,
        isAdmin: Boolean(r.user?.is_admin),
        isOwner: Boolean(r.user?.is_owner || r.user?.is_primary_owner),
        email: r.user?.profile?.email,
        name: r.user?.real_name || r.user?.name,
        isGuest: Boolean(r.user?.is_restricted || r.user?.is_ultra_restricted),
        teamId: r.user?.team_id,
        enterpriseId: r.user?.enterprise_user?.enterprise_id,
        isStranger: Boolean(r.user?.is_stranger),
      }));
    this.cache.set(key, user);
    // A failed lookup is not remembered: the next ask tries again.
    user.catch(() => this.cache.delete(key));
    return user;
  }

  forget(teamId: string, userId: string): void {
    this.cache.delete(`${teamId}:${userId}`);
  }
}
