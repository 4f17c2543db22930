/** task-creators on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { TaskCreatorsStore } from './contract.js';

export function taskCreatorsStore(db: Database.Database): Sync<TaskCreatorsStore> {
  const insert = db.prepare(
    `INSERT INTO task_creators (team_id, task_id, slack_user_id, service_user_id, created_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (team_id, task_id) DO NOTHING`,
  );
  const select = db.prepare<
    [string, string],
    { slack_user_id: string | null; service_user_id: string | null }
  >('SELECT slack_user_id, service_user_id FROM task_creators WHERE team_id = ? AND task_id = ?');
  const remove = db.prepare('DELETE FROM task_creators WHERE team_id = ?');
  return {
    note(teamId, taskId, creator, now = Date.now()) {
      if (!creator.slackUserId && !creator.serviceUserId) return;
      insert.run(teamId, taskId, creator.slackUserId ?? null, creator.serviceUserId ?? null, now);
    },
    get(teamId, taskId) {
      const r = select.get(teamId, taskId);
      if (!r) return undefined;
      return {
        ...(r.slack_user_id ? { slackUserId: r.slack_user_id } : {}),
        ...(r.service_user_id ? { serviceUserId: r.service_user_id } : {}),
      };
    },
    deleteTeam: (teamId) => remove.run(teamId).changes,
  };
}
