/** known_projects on PostgreSQL: the projects a team has used (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { KnownProjectsStore } from './contract.js';
import { fromRow, type Row } from './rows.js';

export function pgKnownProjectsStore(sql: Sql): KnownProjectsStore {
  return {
    async remember(teamId, projectId, projectName) {
      await sql.run(
        named(
          'known-projects.remember',
          `INSERT INTO known_projects (team_id, project_id, project_name, last_seen_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (team_id, project_id) DO UPDATE SET project_name = excluded.project_name,
           last_seen_at = excluded.last_seen_at`,
        ),
        [teamId, projectId, projectName || projectId, new Date().toISOString()],
      );
    },
    // Slack static selects hold at most 100 options; that is the default page.
    list: async (teamId, limit = 100) =>
      (
        await sql.rows<Row>(
          named(
            'known-projects.list',
            `SELECT * FROM known_projects WHERE team_id = $1
            ORDER BY last_seen_at DESC, project_name COLLATE "C" LIMIT $2`,
          ),
          [teamId, limit],
        )
      ).map(fromRow),
    async get(teamId, projectId) {
      const row = await sql.row<Row>(
        named(
          'known-projects.get',
          'SELECT * FROM known_projects WHERE team_id = $1 AND project_id = $2',
        ),
        [teamId, projectId],
      );
      return row ? fromRow(row) : undefined;
    },
    forget: async (teamId, projectId) =>
      (await sql.run(
        named(
          'known-projects.forget',
          'DELETE FROM known_projects WHERE team_id = $1 AND project_id = $2',
        ),
        [teamId, projectId],
      )) > 0,
    deleteTeam: (teamId) =>
      sql.run(named('known-projects.deleteTeam', 'DELETE FROM known_projects WHERE team_id = $1'), [
        teamId,
      ]),
  };
}
