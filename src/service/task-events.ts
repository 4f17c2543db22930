/**
 * The embedded service's `task.updated` and `task.commented` events (docs/events.md), beside
 * `task.created` (task-create.ts). Each is recorded inside the transaction that makes the change
 * (event-outbox.ts), so it exists exactly when the change does, and is delivered signed and
 * in order by events.ts. The hosted service sends none of them; Worklink then finds changes
 * by reading (src/sync).
 *
 * task.updated: `{task, changes, actor}` — `task` is the Task answer after the change,
 * `changes` names each field that changed with its value before and after (assignees as
 * added and removed ids). An update that changes nothing records no event.
 * task.commented: `{task, comment: {commentId, content, createdBy, createdTime}, actor}`.
 */
import type { Db } from './db.js';
import { recordEvent } from './event-outbox.js';
import type { JsonText } from './json-text.js';
import { referenceCache } from './reference-cache.js';
import { findStatus } from './statuses.js';
import type { Caller } from './workspaces.js';

/** A task's fields as stored, before or after an update (what task.updated compares). */
export interface TaskFields {
  name: string;
  description: string;
  status_id: string;
  complete: number;
  group_name: string | null;
  priority: number;
  due_date: string | null;
  estimate_time: number | null;
  project_id: string;
}

export interface Change<T> {
  from: T;
  to: T;
}

/** What changed in one update; only changed fields are present. */
export interface TaskChanges {
  taskName?: Change<string>;
  description?: Change<string>;
  /** Done or not (the Task answer's boolean `status`). */
  status?: Change<boolean>;
  /** The status's name (a move between two open statuses changes only this). */
  statusName?: Change<string | null>;
  priority?: Change<number>;
  /** yyyy-MM-dd or null. */
  dueDate?: Change<string | null>;
  /** The group's name or null. */
  group?: Change<string | null>;
  estimateTime?: Change<number | null>;
  taskUsers?: { added: string[]; removed: string[] };
}

export function taskChanges(
  db: Db,
  before: TaskFields,
  after: TaskFields,
  assignees: { added: string[]; removed: string[] },
): TaskChanges {
  const out: TaskChanges = {};
  const change = <T>(from: T, to: T): Change<T> | undefined =>
    from === to ? undefined : { from, to };
  out.taskName = change(before.name, after.name);
  out.description = change(before.description, after.description);
  out.status = change(before.complete === 1, after.complete === 1);
  if (before.status_id !== after.status_id) {
    const name = (id: string) => findStatus(db, after.project_id, id)?.name ?? null;
    out.statusName = { from: name(before.status_id), to: name(after.status_id) };
  }
  out.priority = change(before.priority, after.priority);
  out.dueDate = change(before.due_date, after.due_date);
  out.group = change(before.group_name, after.group_name);
  out.estimateTime = change(before.estimate_time, after.estimate_time);
  if (assignees.added.length || assignees.removed.length) out.taskUsers = assignees;
  // Only what changed is present (recordTaskUpdated and the event's readers count on it).
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** Records task.updated when anything changed. */
export function recordTaskUpdated(
  db: Db,
  caller: Caller,
  /** The Task answer after the change, as SQLite built it. */
  task: JsonText,
  changes: TaskChanges,
): string | undefined {
  if (Object.keys(changes).length === 0) return undefined;
  const added = changes.taskUsers?.added ?? [];
  const cache = referenceCache(db);
  return recordEvent(db, 'task.updated', caller.workspaceId, caller.userId, {
    task,
    changes,
    // Who the new assignees are, as task.created tells its taskUsers.
    taskUsers: cache.usersOf(caller.workspaceId, added),
    actor: cache.usersOf(caller.workspaceId, [caller.userId])[0],
  });
}

export function recordTaskCommented(
  db: Db,
  caller: Caller,
  /** The Task answer, as SQLite built it. */
  task: JsonText,
  comment: { commentId: string; content: string; createdTime: string },
): string {
  return recordEvent(db, 'task.commented', caller.workspaceId, caller.userId, {
    task,
    comment: { ...comment, createdBy: caller.userId },
    actor: referenceCache(db).usersOf(caller.workspaceId, [caller.userId])[0],
  });
}
