/**
 * seen_requests: what Worklink has already taken in, so it is taken in once — the signature of
 * each signed request (an identical replay inside the 5-minute window is ignored) and each
 * Slack event id (Slack re-sends an event, re-signed, with `x-slack-retry-num` when it did not
 * see the answer). Behind this interface so a shared database can serve several instances;
 * the HTTP front keeps the same window in memory (slack/start/replay-window.ts) and asks the
 * database on a request's way in only when it is `shared`.
 */

export interface SeenRequestsStore {
  /** True when several instances may use this store at once (PostgreSQL). */
  readonly shared: boolean;
  /** Records `key` until `expiresAt` (epoch ms). False when it is already there and live. */
  claim(key: string, expiresAt: number, now?: number): Promise<boolean>;
  /**
   * `claim` for many keys in one write (the replay window's batch, taken in already by one
   * instance's memory): returns how many were new. A key given twice counts once (the later
   * expiry is kept).
   */
  claimMany(claims: readonly { key: string; expiresAt: number }[], now?: number): Promise<number>;
  /** The keys still live at `now`, oldest expiry first (a restarted instance's window). */
  live(now?: number): Promise<{ key: string; expiresAt: number }[]>;
  /** Forgets expired keys; returns how many. */
  prune(now?: number): Promise<number>;
}

/** Each key once, with the expiry given last for it (a batch may name a key twice). */
export function lastExpiryOf(
  claims: readonly { key: string; expiresAt: number }[],
): Map<string, number> {
  return new Map(claims.map((c) => [c.key, c.expiresAt]));
}
