/** leases on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { LeaseClaim, LeasesStore } from './contract.js';

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
