/** reminders on PostgreSQL (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { RemindersStore } from './contract.js';
import { fromReminderRow, newReminderId, type ReminderRow } from './rows.js';

export function pgRemindersStore(sql: Sql): RemindersStore {
  return {
    async add(r, now = Date.now()) {
      const id = newReminderId();
      await sql.run(
        named(
          'reminders.add',
          `INSERT INTO reminders (id, team_id, slack_user_id, task_id, due_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        ),
        [id, r.teamId, r.slackUserId, r.taskId, r.dueAt, now],
      );
      return { ...r, id, createdAt: now };
    },
    pending: async (teamId, slackUserId) =>
      (
        await sql.rows<ReminderRow>(
          named(
            'reminders.pending',
            `SELECT * FROM reminders WHERE team_id = $1 AND slack_user_id = $2
             AND queued_at IS NULL AND cancelled_at IS NULL ORDER BY due_at, id`,
          ),
          [teamId, slackUserId],
        )
      ).map(fromReminderRow),
    cancel: async (teamId, slackUserId, id, now = Date.now()) =>
      (await sql.run(
        named(
          'reminders.cancel',
          `UPDATE reminders SET cancelled_at = $1
          WHERE team_id = $2 AND slack_user_id = $3 AND id = $4
            AND queued_at IS NULL AND cancelled_at IS NULL`,
        ),
        [now, teamId, slackUserId, id],
      )) > 0,
    due: async (until, limit) =>
      (
        await sql.rows<ReminderRow>(
          named(
            'reminders.due',
            `SELECT * FROM reminders WHERE due_at <= $1 AND queued_at IS NULL
             AND cancelled_at IS NULL ORDER BY due_at, id LIMIT $2`,
          ),
          [until, limit],
        )
      ).map(fromReminderRow),
    markQueued: async (id, now = Date.now()) =>
      (await sql.run(
        named(
          'reminders.markQueued',
          'UPDATE reminders SET queued_at = $1 WHERE id = $2 AND queued_at IS NULL',
        ),
        [now, id],
      )) > 0,
    deleteTeam: (teamId) =>
      sql.run(named('reminders.deleteTeam', 'DELETE FROM reminders WHERE team_id = $1'), [teamId]),
  };
}
