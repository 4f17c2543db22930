/**
 * Task activity from two looks at one task (before and after): new assignees, and — when
 * the caller made the change itself (the edit form) — completion or reopening. The index
 * refresh passes only assignees: a status it sees change may be Worklink's own change,
 * already told by the path that made it (an assignment is one DM per person whoever tells it).
 */
import type { Actor, TaskActivityHub } from './activity.js';

export interface TaskState {
  taskId: string;
  projectId?: string;
  assigneeIds: readonly string[];
  done: boolean;
}

export function emitSeenChanges(
  hub: TaskActivityHub,
  teamId: string,
  was: TaskState,
  now: TaskState,
  options: { actor?: Actor; status?: boolean } = {},
): void {
  const base = {
    taskId: now.taskId,
    projectId: now.projectId ?? was.projectId,
    actor: options.actor,
  };
  const added = [...new Set(now.assigneeIds)].filter((id) => !was.assigneeIds.includes(id));
  if (added.length) hub.emit(teamId, { kind: 'assigned', ...base, added });
  if (options.status && was.done !== now.done) {
    hub.emit(teamId, { kind: now.done ? 'completed' : 'reopened', ...base });
  }
}
