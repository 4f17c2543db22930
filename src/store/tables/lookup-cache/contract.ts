/**
 * notify_lookup_cache: what users.lookupByEmail answered, per team and e-mail, until it
 * expires. Hits are kept longer than misses, so a person who joins Slack is found soon while
 * a busy outbox does not ask Slack the same question for every DM.
 */

/** `slackUserId` undefined = Slack said no user has this e-mail. */
export interface LookupEntry {
  slackUserId?: string;
  expiresAt: number;
}

export interface LookupCacheStore {
  /** The cached answer, or undefined when none or expired. */
  get(teamId: string, email: string, now?: number): Promise<LookupEntry | undefined>;
  put(
    teamId: string,
    email: string,
    slackUserId: string | undefined,
    ttlMs: number,
    now?: number,
  ): Promise<void>;
  /** Drops a team's entries (e.g. after links change); returns how many. */
  clear(teamId: string): Promise<number>;
}
