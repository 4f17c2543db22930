/** seen-events on PostgreSQL (what it holds: contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { SeenEventsStore } from './contract.js';

export function pgSeenEventsStore(sql: Sql): SeenEventsStore {
  return {
    markSeen: async (eventId, now = Date.now()) =>
      (await sql.run(
        named(
          'seen-events.markSeen',
          'INSERT INTO notify_seen_events (event_id, seen_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        ),
        [eventId, now],
      )) === 1,
    prune: (olderThanMs, now = Date.now()) =>
      sql.run(named('seen-events.prune', 'DELETE FROM notify_seen_events WHERE seen_at < $1'), [
        now - olderThanMs,
      ]),
  };
}
