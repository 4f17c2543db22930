/**
 * reminders: a person's reminders about tasks (src/store/schema/2026-11-24-reminders.ts). The
 * scheduler (src/slack/remind/scheduler.ts) takes the due ones and queues each as one outbox
 * DM; `/work remind` lists a person's pending ones and cancels them. SQLite's half;
 * pg/reminders.ts is PostgreSQL's, sharing the row mapping.
 */

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
