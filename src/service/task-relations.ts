/** What hangs off a task: its assignees, its subscribers and its files, in order. */

import { z } from 'zod';
import type { CreateTaskBody } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { newId } from './new-ids.js';

/** Appends assignees after the task's existing ones (as `subscribe` does subscribers). */
export function addAssignees(
  db: Db,
  taskId: string,
  by: string,
  userIds: readonly string[],
  now: string,
): void {
  const insert = sql(
    db,
    `INSERT INTO task_assignees (task_id, user_id, position, created_by, updated_by, created_at,
       updated_at)
     VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM task_assignees WHERE task_id = ?),
             ?, ?, ?, ?)`,
  );
  for (const userId of userIds) insert.run(taskId, userId, taskId, by, by, now, now);
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

/**
 * A new task's assignees, at positions from 0 in the order given: one statement (prepared
 * once per length) instead of one per row, and no look-up of the last position (a new task
 * has none). Its subscribers are written with its row (task-create.ts).
 */
export function addNewTaskAssignees(
  db: Db,
  taskId: string,
  by: string,
  assignees: readonly string[],
  now: string,
): void {
  if (assignees.length > 0) {
    sql(
      db,
      `INSERT INTO task_assignees (task_id, user_id, position, created_by, updated_by,
         created_at, updated_at)
       VALUES ${rows(assignees.length, '(?, ?, ?, ?, ?, ?, ?)')}`,
    ).run(...assignees.flatMap((userId, i) => [taskId, userId, i, by, by, now, now]));
  }
}

const valueLists = new Map<string, string[]>();

/** `row` repeated `count` times, comma-separated: a multi-row VALUES list (built once). */
function rows(count: number, row: string): string {
  let lists = valueLists.get(row);
  if (!lists) {
    lists = [];
    valueLists.set(row, lists);
  }
  lists[count] ??= Array.from({ length: count }, () => row).join(', ');
  return lists[count];
}

export function assigneeIds(db: Db, taskId: string): string[] {
  return sql<{ user_id: string }>(
    db,
    'SELECT user_id FROM task_assignees WHERE task_id = ? ORDER BY position',
  )
    .all(taskId)
    .map((r) => r.user_id);
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
