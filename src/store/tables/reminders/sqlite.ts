/** reminders on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { RemindersStore } from './contract.js';
import { fromReminderRow, newReminderId, type ReminderRow } from './rows.js';

export function remindersStore(db: Database.Database): Sync<RemindersStore> {
  const insert = db.prepare(
    `INSERT INTO reminders (id, team_id, slack_user_id, task_id, due_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const pending = db.prepare<[string, string], ReminderRow>(
    `SELECT * FROM reminders WHERE team_id = ? AND slack_user_id = ?
       AND queued_at IS NULL AND cancelled_at IS NULL ORDER BY due_at, id`,
  );
  const cancel = db.prepare(
    `UPDATE reminders SET cancelled_at = ? WHERE team_id = ? AND slack_user_id = ? AND id = ?
       AND queued_at IS NULL AND cancelled_at IS NULL`,
  );
  const due = db.prepare<[number, number], ReminderRow>(
    `SELECT * FROM reminders WHERE due_at <= ? AND queued_at IS NULL AND cancelled_at IS NULL
      ORDER BY due_at, id LIMIT ?`,
  );
  const queued = db.prepare(
    'UPDATE reminders SET queued_at = ? WHERE id = ? AND queued_at IS NULL',
  );
  const remove = db.prepare('DELETE FROM reminders WHERE team_id = ?');
  return {
    add(r, now = Date.now()) {
      const id = newReminderId();
      insert.run(id, r.teamId, r.slackUserId, r.taskId, r.dueAt, now);
      return { ...r, id, createdAt: now };
    },
    pending: (teamId, slackUserId) => pending.all(teamId, slackUserId).map(fromReminderRow),
    cancel: (teamId, slackUserId, id, now = Date.now()) =>
      cancel.run(now, teamId, slackUserId, id).changes > 0,
    due: (until, limit) => due.all(until, limit).map(fromReminderRow),
    markQueued: (id, now = Date.now()) => queued.run(now, id).changes > 0,
    deleteTeam: (teamId) => remove.run(teamId).changes,
  };
}
