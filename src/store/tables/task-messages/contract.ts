/**
 * task_messages: every Slack message Worklink posted about a task (the live card in a channel
 * or DM, an assignee's DM), so a change to the task can be shown in each of them with
 * chat.update. Assignment DMs are recorded by a trigger on notify_outbox when the worker marks
 * one sent (see migrations.ts), so the outbox code needs no knowledge of this table.
 * A message that can no longer be updated is forgotten (deleted), never retried forever.
 */

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
