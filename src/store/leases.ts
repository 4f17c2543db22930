/**
 * leases: periodic work that only one instance should do at a time, when several instances
 * share one database — a watched project's look (src/sync/watcher.ts), a team's digest look
 * (src/slack/digest/scheduler.ts). Each piece of work is a key with the moment it is
 * next due and a lease: an instance takes the due keys (stamping `claimed_by` and
 * `lease_until`), does the work, and finishes it with the next due time. An instance that
 * dies holding a lease loses it when it runs out; the work is still due, so another instance
 * takes it then. Outbox rows have their own lease columns (src/store/outbox.ts).
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

export interface TakenLease {
  key: string;
  /** The instance that held it before (undefined for work never done): its caches may be stale. */
  previousHolder?: string;
}

export interface LeaseClaim {
  taken: TakenLease[];
  /** Keys not taken: not due yet, or held by another instance; not before `until` then. */
  busy: { key: string; until: number }[];
}

export interface LeasesStore {
  /**
   * Takes each key that is due (a key never seen is due) and not held by a live lease, for
   * `leaseMs`, as `holder`.
   */
  claim(keys: readonly string[], holder: string, now: number, leaseMs: number): Promise<LeaseClaim>;
  /**
   * The holder is done: the work is next due at `nextAt` and the lease ends. False when the
   * lease was no longer this holder's (it ran out and another instance took the work).
   */
  finish(key: string, holder: string, nextAt: number): Promise<boolean>;
}

interface LeaseRow {
  claimed_by: string | null;
  lease_until: number;
  next_at: number;
}

export function leasesStore(db: Database.Database): Sync<LeasesStore> {
  const get = db.prepare<[string], LeaseRow>(
    'SELECT claimed_by, lease_until, next_at FROM leases WHERE key = ?',
  );
  const insert = db.prepare(
    'INSERT INTO leases (key, claimed_by, lease_until, next_at) VALUES (?, ?, ?, ?)',
  );
  const take = db.prepare('UPDATE leases SET claimed_by = ?, lease_until = ? WHERE key = ?');
  const finish = db.prepare(
    'UPDATE leases SET lease_until = 0, next_at = ? WHERE key = ? AND claimed_by = ?',
  );
  // One transaction: SQLite runs it alone, so the read and the stamp cannot interleave with
  // another instance's (the PostgreSQL engine locks the rows with FOR UPDATE SKIP LOCKED).
  const claim = db.transaction(
    (keys: readonly string[], holder: string, now: number, until: number) => {
      const out: LeaseClaim = { taken: [], busy: [] };
      for (const key of keys) {
        const row = get.get(key);
        if (!row) {
          insert.run(key, holder, until, now);
          out.taken.push({ key });
        } else if (row.next_at <= now && row.lease_until <= now) {
          take.run(holder, until, key);
          out.taken.push(row.claimed_by ? { key, previousHolder: row.claimed_by } : { key });
        } else {
          out.busy.push({ key, until: Math.max(row.next_at, row.lease_until) });
        }
      }
      return out;
    },
  );
  return {
    claim: (keys, holder, now, leaseMs) =>
      keys.length ? claim(keys, holder, now, now + leaseMs) : { taken: [], busy: [] },
    finish: (key, holder, nextAt) => finish.run(Math.ceil(nextAt), key, holder).changes === 1,
  };
}

export interface LeasedRound {
  holder: string;
  now: number;
  leaseMs: number;
  /** When each key's work is due again once done. */
  nextAt: number;
}

/**
 * A periodic round over `keys` with leases: runs `work` for each key this instance takes,
 * one after the other, and finishes each (also when `work` throws; the error is passed on
 * to `failed`). Keys another instance holds or did this round are left out.
 */
export async function runLeased(
  leases: LeasesStore,
  keys: readonly string[],
  round: LeasedRound,
  work: (key: string) => Promise<void>,
  failed: (key: string, e: unknown) => void,
): Promise<void> {
  const { taken } = await leases.claim(keys, round.holder, round.now, round.leaseMs);
  for (const { key } of taken) {
    try {
      await work(key);
    } catch (e) {
      failed(key, e);
    } finally {
      await leases.finish(key, round.holder, round.nextAt);
    }
  }
}
