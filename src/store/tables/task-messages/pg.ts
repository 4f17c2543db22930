/**
 * task_messages on PostgreSQL: the Slack messages about each task (contract.ts).
 * Assignment DMs are recorded by a trigger on notify_outbox when one is marked sent
 * (migrations.ts), as on SQLite.
 */

import { named, type Sql } from '../../pg/db.js';
import type { TaskMessagesStore } from './contract.js';
import { fromRow, type Row } from './rows.js';

export function pgTaskMessagesStore(sql: Sql): TaskMessagesStore {
  return {
    async remember(m, now = Date.now()) {
      await sql.run(
        named(
          'task-messages.remember',
          `INSERT INTO task_messages
           (team_id, task_id, channel_id, ts, kind, actor, task_number, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        ),
        [m.teamId, m.taskId, m.channelId, m.ts, m.kind, m.actor ?? null, m.number ?? null, now],
      );
    },
    forTask: async (teamId, taskId) =>
      (
        await sql.rows<Row>(
          named(
            'task-messages.forTask',
            `SELECT * FROM task_messages WHERE team_id = $1 AND task_id = $2
            ORDER BY created_at, ts COLLATE "C"`,
          ),
          [teamId, taskId],
        )
      ).map(fromRow),
    setNumber: async (teamId, taskId, n) => {
      await sql.run(
        named(
          'task-messages.setNumber',
          'UPDATE task_messages SET task_number = $1 WHERE team_id = $2 AND task_id = $3',
        ),
        [n, teamId, taskId],
      );
    },
    forget: async (teamId, channelId, ts) =>
      (await sql.run(
        named(
          'task-messages.forget',
          'DELETE FROM task_messages WHERE team_id = $1 AND channel_id = $2 AND ts = $3',
        ),
        [teamId, channelId, ts],
      )) > 0,
    deleteTeam: (teamId) =>
      sql.run(named('task-messages.deleteTeam', 'DELETE FROM task_messages WHERE team_id = $1'), [
        teamId,
      ]),
  };
}
