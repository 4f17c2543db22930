/**
 * seen_requests on PostgreSQL: what was already taken in, shared by
 * every instance on the database (contract.ts; service event ids: ../seen-events/). Each claim is one
 * INSERT … ON CONFLICT, so two instances offered the same key at once cannot both win.
 */

import { named, type Sql } from '../../pg/db.js';
import { lastExpiryOf, type SeenRequestsStore } from './contract.js';

export function pgSeenRequestsStore(sql: Sql): SeenRequestsStore {
  return {
    shared: true,
    // An expired row is taken over; a live one makes the insert change nothing.
    claim: async (key, expiresAt, now = Date.now()) =>
      (await sql.run(
        named(
          'seen-requests.claim',
          `INSERT INTO seen_requests (key, expires_at) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at
         WHERE seen_requests.expires_at <= $3`,
        ),
        [key, expiresAt, now],
      )) === 1,
    // One statement for the batch (a key twice in one INSERT … ON CONFLICT would fail: once).
    claimMany: async (claims, now = Date.now()) => {
      const batch = lastExpiryOf(claims);
      if (batch.size === 0) return 0;
      return sql.run(
        named(
          'seen-requests.claim-many',
          `INSERT INTO seen_requests (key, expires_at)
           SELECT * FROM unnest($1::text[], $2::bigint[])
           ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at
           WHERE seen_requests.expires_at <= $3`,
        ),
        [[...batch.keys()], [...batch.values()], now],
      );
    },
    live: (now = Date.now()) =>
      sql.rows<{ key: string; expiresAt: number }>(
        named(
          'seen-requests.live',
          'SELECT key, expires_at AS "expiresAt" FROM seen_requests WHERE expires_at > $1 ORDER BY expires_at',
        ),
        [now],
      ),
    prune: (now = Date.now()) =>
      sql.run(named('seen-requests.prune', 'DELETE FROM seen_requests WHERE expires_at <= $1'), [
        now,
      ]),
  };
}
