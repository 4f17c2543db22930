/** team-settings on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { TeamSettings, TeamSettingsStore } from './contract.js';
import { fromRow, type Row, UPSERT_COLUMNS } from './rows.js';

export function teamSettingsStore(db: Database.Database): Sync<TeamSettingsStore> {
  const select = db.prepare<[string], Row>('SELECT * FROM team_settings WHERE team_id = ?');
  const upsert = db.prepare(
    `INSERT INTO team_settings ${UPSERT_COLUMNS} VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (team_id) DO UPDATE SET members_policy = excluded.members_policy,
       links_policy = excluded.links_policy, updated_by = excluded.updated_by,
       updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM team_settings WHERE team_id = ?');
  const set = db.transaction(
    (teamId: string, change: Partial<TeamSettings>, by: string, now: number): TeamSettings => {
      const next = { ...fromRow(select.get(teamId)), ...change, updatedBy: by, updatedAt: now };
      upsert.run(teamId, next.members, next.links, by, now);
      return next;
    },
  );
  return {
    get: (teamId) => fromRow(select.get(teamId)),
    set: (teamId, change, by, now = Date.now()) => set(teamId, change, by, now),
    deleteTeam: (teamId) => remove.run(teamId).changes,
  };
}
