/**
 * leases on PostgreSQL (see contract.ts): a claim is one short transaction that makes the
 * keys' rows exist, locks the due and free ones with FOR UPDATE SKIP LOCKED (a key another
 * instance is claiming this very moment is skipped, not waited for) and stamps them with the
 * holder and the lease's end.
 */

import { named, type Sql } from '../../pg/db.js';
import type { LeaseClaim, LeasesStore } from './contract.js';

export function pgLeasesStore(sql: Sql): LeasesStore {
  return {
    claim: (keys, holder, now, leaseMs) => {
      if (!keys.length) return Promise.resolve({ taken: [], busy: [] });
      return sql.tx(async (tx): Promise<LeaseClaim> => {
        await tx.run(
          named(
            'leases.claim',
            `INSERT INTO leases (key, claimed_by, lease_until, next_at)
           SELECT k, NULL, 0, 0 FROM unnest($1::text[]) AS k ON CONFLICT DO NOTHING`,
          ),
          [keys],
        );
        const free = await tx.rows<{ key: string; claimed_by: string | null }>(
          named(
            'leases.claim.2',
            `SELECT key, claimed_by FROM leases
            WHERE key = ANY($1::text[]) AND next_at <= $2 AND lease_until <= $2
            ORDER BY key FOR UPDATE SKIP LOCKED`,
          ),
          [keys, now],
        );
        const taken = free.map((r) => r.key);
        if (taken.length) {
          await tx.run(
            named(
              'leases.claim.3',
              'UPDATE leases SET claimed_by = $1, lease_until = $2 WHERE key = ANY($3::text[])',
            ),
            [holder, now + leaseMs, taken],
          );
        }
        const busy = await tx.rows<{ key: string; until: number }>(
          named(
            'leases.claim.4',
            `SELECT key, greatest(next_at, lease_until) AS until FROM leases
            WHERE key = ANY($1::text[]) AND NOT key = ANY($2::text[]) ORDER BY key`,
          ),
          [keys, taken],
        );
        return {
          taken: free.map((r) =>
            r.claimed_by ? { key: r.key, previousHolder: r.claimed_by } : { key: r.key },
          ),
          busy,
        };
      });
    },
    finish: async (key, holder, nextAt) =>
      (await sql.run(
        named(
          'leases.finish',
          'UPDATE leases SET lease_until = 0, next_at = $1 WHERE key = $2 AND claimed_by = $3',
        ),
        [Math.ceil(nextAt), key, holder],
      )) === 1,
  };
}
