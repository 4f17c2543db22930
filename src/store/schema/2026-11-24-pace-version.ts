/**
 * team_pace gets a version, raised by every change of the team's pace or of one of its
 * channels': PostgreSQL changes the pace in one statement that applies only when the row is
 * still at the version the instance last saw (src/store/tables/pace/pg.ts), instead of a
 * transaction that reads, locks and writes (two of them per DM, 1.3 ms). Rows start at 1:
 * 0 means "no row" to the store. SQLite has the column too (one schema) but no use for it:
 * there a change is one transaction on the one connection, which nothing interleaves with.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-pace-version',
  sqlite: `
    ALTER TABLE team_pace ADD COLUMN version INTEGER NOT NULL DEFAULT 1;`,
  pg: `
    ALTER TABLE team_pace ADD COLUMN version BIGINT NOT NULL DEFAULT 1;`,
};
