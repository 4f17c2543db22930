/** channel_projects on PostgreSQL: a Slack channel's default project (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { ChannelProjectsStore } from './contract.js';
import { fromRow, type Row } from './rows.js';

export function pgChannelProjectsStore(sql: Sql): ChannelProjectsStore {
  return {
    async get(teamId, channelId) {
      const row = await sql.row<Row>(
        named(
          'channel-projects.get',
          'SELECT * FROM channel_projects WHERE team_id = $1 AND channel_id = $2',
        ),
        [teamId, channelId],
      );
      return row ? fromRow(row) : undefined;
    },
    async link(teamId, channelId, projectId, linkedBy) {
      const linkedAt = new Date().toISOString();
      await sql.run(
        named(
          'channel-projects.link',
          `INSERT INTO channel_projects (team_id, channel_id, project_id, linked_by, linked_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (team_id, channel_id) DO UPDATE SET project_id = excluded.project_id,
           linked_by = excluded.linked_by, linked_at = excluded.linked_at`,
        ),
        [teamId, channelId, projectId, linkedBy, linkedAt],
      );
      return { teamId, channelId, projectId, linkedBy, linkedAt };
    },
    unlink: async (teamId, channelId) =>
      (await sql.run(
        named(
          'channel-projects.unlink',
          'DELETE FROM channel_projects WHERE team_id = $1 AND channel_id = $2',
        ),
        [teamId, channelId],
      )) > 0,
    listForTeam: async (teamId) =>
      (
        await sql.rows<Row>(
          named(
            'channel-projects.listForTeam',
            `SELECT * FROM channel_projects WHERE team_id = $1
            ORDER BY linked_at, channel_id COLLATE "C"`,
          ),
          [teamId],
        )
      ).map(fromRow),
    deleteTeam: (teamId) =>
      sql.run(
        named('channel-projects.deleteTeam', 'DELETE FROM channel_projects WHERE team_id = $1'),
        [teamId],
      ),
  };
}
