/** task-messages: its rows as both engines store them, and how they read as the contract's types. */
import type { TaskMessage, TaskMessageKind } from './contract.js';

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
