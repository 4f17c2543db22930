/** seen-events on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { SeenEventsStore } from './contract.js';

export function seenEventsStore(db: Database.Database): Sync<SeenEventsStore> {
  const insert = db.prepare(
    'INSERT INTO notify_seen_events (event_id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const prune = db.prepare('DELETE FROM notify_seen_events WHERE seen_at < ?');
  return {
    markSeen: (eventId, now = Date.now()) => insert.run(eventId, now).changes === 1,
    prune: (olderThanMs, now = Date.now()) => prune.run(now - olderThanMs).changes,
  };
}
