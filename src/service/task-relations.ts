/** What hangs off a task: its assignees, its subscribers and its files, in order. */

import { z } from 'zod';
import type { CreateTaskBody } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { newId } from './new-ids.js';

/**
 * One assignee as the task row's `assignees` holds them, a JSON array in order (migrations.ts,
 * entry 5): who, and who assigned them when. Triggers on tasks keep project_assignees.
 */
const AssigneeEntry = z.object({
  userId: z.string(),
  createdBy: z.string(),
  updatedBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AssigneeEntry = z.infer<typeof AssigneeEntry>;
const assigneeEntries = z.array(AssigneeEntry);

/** New assignees, assigned by `by` at `now`. */
export function newAssignees(userIds: readonly string[], by: string, now: string): AssigneeEntry[] {
  return userIds.map((userId) => ({
    userId,
    createdBy: by,
    updatedBy: by,
    createdAt: now,
    updatedAt: now,
  }));
}

/** The task's assignees, in order (none for an unknown task). */
export function assigneesOf(db: Db, taskId: string): AssigneeEntry[] {
  const row = sql<{ assignees: string }>(db, 'SELECT assignees FROM tasks WHERE id = ?').get(
    taskId,
  );
  return row ? assigneeEntries.parse(JSON.parse(row.assignees)) : [];
}

export function assigneeIds(db: Db, taskId: string): string[] {
  return assigneesOf(db, taskId).map((a) => a.userId);
}

/** Replaces the task's assignees (the triggers on tasks update project_assignees). */
export function setAssignees(db: Db, taskId: string, assignees: readonly AssigneeEntry[]): void {
  sql(db, 'UPDATE tasks SET assignees = ? WHERE id = ?').run(JSON.stringify(assignees), taskId);
}

const subscriberIds = z.array(z.string());

/**
 * Appends subscribers after the task's existing ones; one already there stays where it is.
 * They are the task row's JSON array `subscriber_ids` (migrations.ts, entry 4).
 */
export function subscribe(db: Db, taskId: string, userIds: readonly string[]): void {
  const row = sql<{ subscriber_ids: string }>(
    db,
    'SELECT subscriber_ids FROM tasks WHERE id = ?',
  ).get(taskId);
  if (!row) return;
  const subscribers = subscriberIds.parse(JSON.parse(row.subscriber_ids));
  const added = userIds.filter((id, i) => !subscribers.includes(id) && userIds.indexOf(id) === i);
  if (added.length === 0) return;
  sql(db, 'UPDATE tasks SET subscriber_ids = ? WHERE id = ?').run(
    JSON.stringify([...subscribers, ...added]),
    taskId,
  );
}

export function replaceFiles(
  db: Db,
  taskId: string,
  files: NonNullable<CreateTaskBody['files']>,
): void {
  sql(db, 'DELETE FROM task_files WHERE task_id = ?').run(taskId);
  const insert = sql(
    db,
    `INSERT INTO task_files (id, task_id, position, file_type, href, name, size)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  files.forEach((f, i) => {
    insert.run(newId(), taskId, i, f.fileType, f.href, f.name, f.size);
  });
}
