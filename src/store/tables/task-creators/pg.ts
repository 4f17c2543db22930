/** task_creators on PostgreSQL: who created each task, as Slack knows it (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { TaskCreatorsStore } from './contract.js';

export function pgTaskCreatorsStore(sql: Sql): TaskCreatorsStore {
  return {
    async note(teamId, taskId, creator, now = Date.now()) {
      if (!creator.slackUserId && !creator.serviceUserId) return;
      await sql.run(
        named(
          'task-creators.note',
          `INSERT INTO task_creators (team_id, task_id, slack_user_id, service_user_id, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (team_id, task_id) DO NOTHING`,
        ),
        [teamId, taskId, creator.slackUserId ?? null, creator.serviceUserId ?? null, now],
      );
    },
    async get(teamId, taskId) {
      const r = await sql.row<{ slack_user_id: string | null; service_user_id: string | null }>(
        named(
          'task-creators.get',
          'SELECT slack_user_id, service_user_id FROM task_creators WHERE team_id = $1 AND task_id = $2',
        ),
        [teamId, taskId],
      );
      if (!r) return undefined;
      return {
        ...(r.slack_user_id ? { slackUserId: r.slack_user_id } : {}),
        ...(r.service_user_id ? { serviceUserId: r.service_user_id } : {}),
      };
    },
    deleteTeam: (teamId) =>
      sql.run(named('task-creators.deleteTeam', 'DELETE FROM task_creators WHERE team_id = $1'), [
        teamId,
      ]),
  };
}
