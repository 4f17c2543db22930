/** watched_projects and watch_seen on PostgreSQL: what the watcher has seen (contract.ts). */

import type { Sql } from '../../pg/db.js';
import type { WatchStateStore } from './contract.js';

export function pgWatchStateStore(sql: Sql): WatchStateStore {
  const record = (teamId: string, projectId: string, now: number, taskIds: readonly string[]) =>
    sql.tx(async (tx) => {
      await tx.run(
        `INSERT INTO watched_projects (team_id, project_id, baseline_at, looked_at)
         VALUES ($1, $2, $3, $3)
         ON CONFLICT (team_id, project_id) DO UPDATE SET looked_at = excluded.looked_at`,
        [teamId, projectId, now],
      );
      // One statement for the whole list (a baseline can be thousands of ids).
      if (taskIds.length) {
        await tx.run(
          `INSERT INTO watch_seen (team_id, project_id, task_id)
           SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING`,
          [teamId, projectId, taskIds],
        );
      }
    });
  return {
    async seenIds(teamId, projectId) {
      const look = await sql.row(
        'SELECT 1 FROM watched_projects WHERE team_id = $1 AND project_id = $2',
        [teamId, projectId],
      );
      if (!look) return undefined;
      const rows = await sql.rows<{ task_id: string }>(
        'SELECT task_id FROM watch_seen WHERE team_id = $1 AND project_id = $2',
        [teamId, projectId],
      );
      return new Set(rows.map((r) => r.task_id));
    },
    recordBaseline: (teamId, projectId, taskIds, now) => record(teamId, projectId, now, taskIds),
    recordLook: (teamId, projectId, now, newIds = []) => record(teamId, projectId, now, newIds),
    looks: async (teamId) =>
      (
        await sql.rows<{
          project_id: string;
          baseline_at: number;
          looked_at: number;
          seen: number;
        }>(
          `SELECT w.project_id, w.baseline_at, w.looked_at,
                  (SELECT count(*) FROM watch_seen s
                    WHERE s.team_id = w.team_id AND s.project_id = w.project_id) AS seen
             FROM watched_projects w WHERE w.team_id = $1
            ORDER BY w.looked_at DESC, w.project_id COLLATE "C"`,
          [teamId],
        )
      ).map((r) => ({
        teamId,
        projectId: r.project_id,
        baselineAt: r.baseline_at,
        lookedAt: r.looked_at,
        seen: r.seen,
      })),
    forgetTeam: (teamId) =>
      sql.tx(async (tx) => {
        await tx.run('DELETE FROM watch_seen WHERE team_id = $1', [teamId]);
        await tx.run('DELETE FROM watched_projects WHERE team_id = $1', [teamId]);
      }),
  };
}
