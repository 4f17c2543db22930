/**
 * team_pace gets a lease: the instance that paces a team keeps its pace in memory for a
 * few seconds at a time (src/store/tables/pace/pg.ts) instead of one statement per DM, and
 * every other instance sees the team as blocked until the lease ends. `holder` is the
 * holding store's id, `held_until` its end (epoch ms; 0: nobody holds it).
 * SQLite has them too (one schema) but no use for them: there every change is one
 * transaction on the one connection, no round trip to save.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-team-pace-lease',
  sqlite: `
    ALTER TABLE team_pace ADD COLUMN holder TEXT;
    ALTER TABLE team_pace ADD COLUMN held_until INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX team_pace_held ON team_pace (held_until);`,
  pg: `
    ALTER TABLE team_pace ADD COLUMN holder TEXT;
    ALTER TABLE team_pace ADD COLUMN held_until BIGINT NOT NULL DEFAULT 0;
    CREATE INDEX team_pace_held ON team_pace (held_until);`,
};
