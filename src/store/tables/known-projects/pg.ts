/** known_projects on PostgreSQL: the projects a team has used (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { KnownProjectsStore } from './contract.js';
import { RecentlyRemembered } from './recently.js';
import { fromRow, type Row } from './rows.js';

/**
 * `recent`: the database's sightings written a moment ago, shared by the pool's store and
 * its transactions'. Only the pool's store skips and records writes (`remembers`): a write in
 * a transaction may be rolled back. Forgetting clears it from either.
 */
export function pgKnownProjectsStore(
  sql: Sql,
  recent = new RecentlyRemembered(),
  remembers = true,
): KnownProjectsStore {
  return {
    async remember(teamId, projectId, projectName) {
      const name = projectName || projectId;
      if (remembers && recent.fresh(teamId, projectId, name)) return;
      await sql.run(
        named(
          'known-projects.remember',
          `INSERT INTO known_projects (team_id, project_id, project_name, last_seen_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (team_id, project_id) DO UPDATE SET project_name = excluded.project_name,
           last_seen_at = excluded.last_seen_at`,
        ),
        [teamId, projectId, name, new Date().toISOString()],
      );
      if (remembers) recent.wrote(teamId, projectId, name);
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
    forget: async (teamId, projectId) => {
      recent.forget(teamId, projectId);
      return (
        (await sql.run(
          named(
            'known-projects.forget',
            'DELETE FROM known_projects WHERE team_id = $1 AND project_id = $2',
          ),
          [teamId, projectId],
        )) > 0
      );
    },
    deleteTeam: (teamId) => {
      recent.forget(teamId);
      return sql.run(
        named('known-projects.deleteTeam', 'DELETE FROM known_projects WHERE team_id = $1'),
        [teamId],
      );
    },
  };
}
