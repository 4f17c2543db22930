/** channel-projects on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { ChannelProjectsStore } from './contract.js';
import { fromRow, type Row } from './rows.js';

export function channelProjectsStore(db: Database.Database): Sync<ChannelProjectsStore> {
  const select = db.prepare<[string, string], Row>(
    'SELECT * FROM channel_projects WHERE team_id = ? AND channel_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO channel_projects (team_id, channel_id, project_id, linked_by, linked_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (team_id, channel_id) DO UPDATE SET project_id = excluded.project_id,
       linked_by = excluded.linked_by, linked_at = excluded.linked_at`,
  );
  const remove = db.prepare('DELETE FROM channel_projects WHERE team_id = ? AND channel_id = ?');
  const forTeam = db.prepare<[string], Row>(
    'SELECT * FROM channel_projects WHERE team_id = ? ORDER BY linked_at, channel_id',
  );
  const removeTeam = db.prepare('DELETE FROM channel_projects WHERE team_id = ?');

  return {
    get: (teamId, channelId) => {
      const row = select.get(teamId, channelId);
      return row ? fromRow(row) : undefined;
    },
    link(teamId, channelId, projectId, linkedBy) {
      const linkedAt = new Date().toISOString();
      upsert.run(teamId, channelId, projectId, linkedBy, linkedAt);
      return { teamId, channelId, projectId, linkedBy, linkedAt };
    },
    unlink: (teamId, channelId) => remove.run(teamId, channelId).changes > 0,
    listForTeam: (teamId) => forTeam.all(teamId).map(fromRow),
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
