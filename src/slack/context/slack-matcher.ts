/**
 * Service user → Slack user: the person holding a working key of their own acting as that
 * service user (`/work connect me`) first, then an explicit link (`/work link`), else the Slack user with
 * the same e-mail (users.lookupByEmail), remembered in the store for an hour (a miss for ten
 * minutes, so someone who just joined Slack is found soon). Concurrent asks for one e-mail
 * share one call. Slack failures other than "no such user" are thrown for the caller to
 * classify (classifySlackError).
 */

import type { UsersLookupByEmailResponse, WebClient } from '@slack/web-api';
import type { LookupCacheStore, PersonalKeysStore, UserLinksStore } from '../../store/index.js';
import { slackCode } from '../ui/error-text.js';
import { type Priority, slackLimiter } from './slack-limiter.js';

export const LOOKUP_HIT_TTL_MS = 60 * 60_000;
export const LOOKUP_MISS_TTL_MS = 10 * 60_000;

export type Match =
  | { kind: 'matched'; slackUserId: string; via: 'own-key' | 'link' | 'email' }
  | { kind: 'unmatched' };

export interface MatchStores {
  userLinks: UserLinksStore;
  lookups: LookupCacheStore;
  /** People's own keys: who holds one acting as a service user is that user. */
  personalKeys?: PersonalKeysStore;
  hitTtlMs?: number;
  missTtlMs?: number;
}

/** One per running Worklink (in its deps): it keeps the lookups under way. */
export class SlackMatcher {
  /** Lookups under way, so a burst of DMs asks Slack once per e-mail. */
  private readonly underWay = new Map<string, Promise<string | undefined>>();

  constructor(private readonly stores: MatchStores) {}

  /**
   * `serviceUserId`, when known, finds the person whose own key acts as that user first.
   * `priority` 'bulk': one of many look-ups for one answer (slack-limiter.ts).
   */
  async match(
    slack: WebClient,
    teamId: string,
    email: string | undefined,
    serviceUserId?: string,
    priority: Priority = 'normal',
  ): Promise<Match> {
    if (serviceUserId && this.stores.personalKeys) {
      const [holder] = await this.stores.personalKeys.byServiceUser(teamId, serviceUserId);
      if (holder) return { kind: 'matched', slackUserId: holder.slackUserId, via: 'own-key' };
    }
    const address = email?.trim().toLowerCase();
    if (!address) return { kind: 'unmatched' };
    const link = await this.stores.userLinks.byEmail(teamId, address);
    if (link) return { kind: 'matched', slackUserId: link.slackUserId, via: 'link' };
    const cached = await this.stores.lookups.get(teamId, address);
    if (cached) {
      return cached.slackUserId
        ? { kind: 'matched', slackUserId: cached.slackUserId, via: 'email' }
        : { kind: 'unmatched' };
    }
    // A look-up queued behind a card's many is not waited for by a DM's (priority in the key).
    const key = `${teamId}\n${address}\n${priority}`;
    let pending = this.underWay.get(key);
    if (!pending) {
      pending = lookUp({ ...this.stores, slack }, teamId, address, priority).finally(() =>
        this.underWay.delete(key),
      );
      this.underWay.set(key, pending);
    }
    const slackUserId = await pending;
    return slackUserId ? { kind: 'matched', slackUserId, via: 'email' } : { kind: 'unmatched' };
  }
}

async function lookUp(
  deps: MatchStores & { slack: WebClient },
  teamId: string,
  email: string,
  priority: Priority,
): Promise<string | undefined> {
  let found: string | undefined;
  try {
    // Within the team's limit (a card may name 80 people); a 429 waits there, not everywhere.
    const res = await slackLimiter.call<UsersLookupByEmailResponse>(
      deps.slack,
      teamId,
      'users.lookupByEmail',
      { email },
      priority,
    );
    const user = res.user;
    // A deactivated account or a bot cannot be told anything.
    found = user?.id && !user.deleted && !user.is_bot ? user.id : undefined;
  } catch (e) {
    const code = slackCode(e);
    if (code !== 'users_not_found' && code !== 'user_not_found') throw e;
  }
  await deps.lookups.put(
    teamId,
    email,
    found,
    found ? (deps.hitTtlMs ?? LOOKUP_HIT_TTL_MS) : (deps.missTtlMs ?? LOOKUP_MISS_TTL_MS),
  );
  return found;
}
