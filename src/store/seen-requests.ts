/**
 * seen_requests: what Worklink has already taken in, so it is taken in once — the signature of
 * each signed request (an identical replay inside the 5-minute window is ignored) and each
 * Slack event id (Slack re-sends an event, re-signed, with `x-slack-retry-num` when it did not
 * see the answer). Behind this interface so a shared database can serve several instances;
 * the HTTP front keeps the same window in memory (slack/start/replay-window.ts) and asks the
 * database on a request's way in only when it is `shared`.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

export interface SeenRequestsStore {
  /** True when several instances may use this store at once (PostgreSQL). */
  readonly shared: boolean;
  /** Records `key` until `expiresAt` (epoch ms). False when it is already there and live. */
  claim(key: string, expiresAt: number, now?: number): Promise<boolean>;
  /** The keys still live at `now`, oldest expiry first (a restarted instance's window). */
  live(now?: number): Promise<{ key: string; expiresAt: number }[]>;
  /** Forgets expired keys; returns how many. */
  prune(now?: number): Promise<number>;
}

export function seenRequestsStore(db: Database.Database): Sync<SeenRequestsStore> {
  // An expired row is taken over; a live one makes the insert change nothing.
  const claim = db.prepare(
    `INSERT INTO seen_requests (key, expires_at) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at
     WHERE seen_requests.expires_at <= ?`,
  );
  const live = db.prepare<[number], { key: string; expiresAt: number }>(
    'SELECT key, expires_at AS expiresAt FROM seen_requests WHERE expires_at > ? ORDER BY expires_at',
  );
  const prune = db.prepare('DELETE FROM seen_requests WHERE expires_at <= ?');
  return {
    // One file per instance (several instances need PostgreSQL: docs/scaling.md).
    shared: false,
    claim: (key, expiresAt, now = Date.now()) => claim.run(key, expiresAt, now).changes === 1,
    live: (now = Date.now()) => live.all(now),
    prune: (now = Date.now()) => prune.run(now).changes,
  };
}
