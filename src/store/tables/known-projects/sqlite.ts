/** known-projects on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { KnownProjectsStore } from './contract.js';
import { fromRow, type Row } from './rows.js';

export function knownProjectsStore(db: Database.Database): Sync<KnownProjectsStore> {
  const upsert = db.prepare(
    `INSERT INTO known_projects (team_id, project_id, project_name, last_seen_at)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, project_id) DO UPDATE SET project_name = excluded.project_name,
       last_seen_at = excluded.last_seen_at`,
  );
  const list = db.prepare<[string, number], Row>(
    `SELECT * FROM known_projects WHERE team_id = ?
     ORDER BY last_seen_at DESC, project_name LIMIT ?`,
  );
  const select = db.prepare<[string, string], Row>(
    'SELECT * FROM known_projects WHERE team_id = ? AND project_id = ?',
  );
  const remove = db.prepare('DELETE FROM known_projects WHERE team_id = ? AND project_id = ?');
  const removeTeam = db.prepare('DELETE FROM known_projects WHERE team_id = ?');

  return {
    remember(teamId, projectId, projectName) {
      upsert.run(teamId, projectId, projectName || projectId, new Date().toISOString());
    },
    // Slack static selects hold at most 100 options; that is the default page.
    list: (teamId, limit = 100) => list.all(teamId, limit).map(fromRow),
    get: (teamId, projectId) => {
      const row = select.get(teamId, projectId);
      return row ? fromRow(row) : undefined;
    },
    forget: (teamId, projectId) => remove.run(teamId, projectId).changes > 0,
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
