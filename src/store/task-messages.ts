/**
 * task_messages: every Slack message Worklink posted about a task (the live card in a channel
 * or DM, an assignee's DM), so a change to the task can be shown in each of them with
 * chat.update. Assignment DMs are recorded by a trigger on notify_outbox when the worker marks
 * one sent (see migrations.ts), so the outbox code needs no knowledge of this table.
 * A message that can no longer be updated is forgotten (deleted), never retried forever.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

/** 'card': a live card (a confirmation, in a channel or a DM); 'dm': an assignment DM. */
export type TaskMessageKind = 'card' | 'dm';

export interface TaskMessage {
  teamId: string;
  taskId: string;
  channelId: string;
  ts: string;
  kind: TaskMessageKind;
  /** Who did it, as shown: '<@U…>' for a Slack user, else a name ("Alice created …"). */
  actor?: string;
  /** The task's number, once known (update task answers it; get task does not). */
  number?: number;
  createdAt: number;
}

export interface TaskMessagesStore {
  remember(m: Omit<TaskMessage, 'createdAt'>, now?: number): Promise<void>;
  forTask(teamId: string, taskId: string): Promise<TaskMessage[]>;
  /** Records the task's number on its messages (kept across later reads without it). */
  setNumber(teamId: string, taskId: string, number: number): Promise<void>;
  /** Forgets one message (deleted, its channel gone, no longer editable). */
  forget(teamId: string, channelId: string, ts: string): Promise<boolean>;
  deleteTeam(teamId: string): Promise<number>;
}

/** A row as stored (both engines read it the same way). */
export interface Row {
  team_id: string;
  task_id: string;
  channel_id: string;
  ts: string;
  kind: TaskMessageKind;
  actor: string | null;
  task_number: number | null;
  created_at: number;
}

export const fromRow = (r: Row): TaskMessage => ({
  teamId: r.team_id,
  taskId: r.task_id,
  channelId: r.channel_id,
  ts: r.ts,
  kind: r.kind,
  actor: r.actor ?? undefined,
  number: r.task_number ?? undefined,
  createdAt: r.created_at,
});

export function taskMessagesStore(db: Database.Database): Sync<TaskMessagesStore> {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO task_messages
       (team_id, task_id, channel_id, ts, kind, actor, task_number, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const select = db.prepare<[string, string], Row>(
    'SELECT * FROM task_messages WHERE team_id = ? AND task_id = ? ORDER BY created_at, ts',
  );
  const number = db.prepare(
    'UPDATE task_messages SET task_number = ? WHERE team_id = ? AND task_id = ?',
  );
  const remove = db.prepare(
    'DELETE FROM task_messages WHERE team_id = ? AND channel_id = ? AND ts = ?',
  );
  const removeTeam = db.prepare('DELETE FROM task_messages WHERE team_id = ?');
  return {
    remember(m, now = Date.now()) {
      insert.run(
        m.teamId,
        m.taskId,
        m.channelId,
        m.ts,
        m.kind,
        m.actor ?? null,
        m.number ?? null,
        now,
      );
    },
    forTask: (teamId, taskId) => select.all(teamId, taskId).map(fromRow),
    setNumber: (teamId, taskId, n) => void number.run(n, teamId, taskId),
    forget: (teamId, channelId, ts) => remove.run(teamId, channelId, ts).changes > 0,
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
