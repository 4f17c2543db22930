/** reminders: its rows as both engines store them, and how they read as the contract's types. */
import { randomBytes } from 'node:crypto';
import type { Reminder } from './contract.js';

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
