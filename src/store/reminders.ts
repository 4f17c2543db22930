/**
 * reminders: a person's reminders about tasks (src/store/schema/2026-11-24-reminders.ts). The
 * scheduler (src/slack/remind/scheduler.ts) takes the due ones and queues each as one outbox
 * DM; `/work remind` lists a person's pending ones and cancels them. SQLite's half;
 * pg/reminders.ts is PostgreSQL's, sharing the row mapping.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

export interface Reminder {
  id: string;
  teamId: string;
  slackUserId: string;
  taskId: string;
  /** Epoch ms. */
  dueAt: number;
  createdAt: number;
}

export interface RemindersStore {
  add(r: Omit<Reminder, 'id' | 'createdAt'>, now?: number): Promise<Reminder>;
  /** A person's reminders not yet sent nor cancelled, soonest first. */
  pending(teamId: string, slackUserId: string): Promise<Reminder[]>;
  /** Cancels one of the person's pending reminders; false when there is none such. */
  cancel(teamId: string, slackUserId: string, id: string, now?: number): Promise<boolean>;
  /** Reminders due by `until` and not yet queued, soonest first. */
  due(until: number, limit: number): Promise<Reminder[]>;
  /** Its DM is queued; false when another instance marked it first. */
  markQueued(id: string, now?: number): Promise<boolean>;
  deleteTeam(teamId: string): Promise<number>;
}

export interface ReminderRow {
  id: string;
  team_id: string;
  slack_user_id: string;
  task_id: string;
  due_at: number | string;
  created_at: number | string;
}

export const fromReminderRow = (r: ReminderRow): Reminder => ({
  id: r.id,
  teamId: r.team_id,
  slackUserId: r.slack_user_id,
  taskId: r.task_id,
  // BIGINT comes back from pg as a string.
  dueAt: Number(r.due_at),
  createdAt: Number(r.created_at),
});

export const newReminderId = () => randomBytes(8).toString('hex');

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
