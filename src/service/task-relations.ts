/** The rows that hang off a task: its assignees, its subscribers and its files, in order. */
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

/** Appends subscribers after the task's existing ones; one already there stays where it is. */
export function subscribe(db: Db, taskId: string, userIds: readonly string[]): void {
  const insert = sql(
    db,
    `INSERT OR IGNORE INTO task_subscribers (task_id, user_id, position)
     VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM task_subscribers WHERE task_id = ?))`,
  );
  for (const userId of userIds) insert.run(taskId, userId, taskId);
}

/**
 * A new task's assignees and subscribers, at positions from 0 in the order given: one
 * statement for each list (prepared once per length) instead of one per row, and no look-up
 * of the last position (a new task has none).
 */
export function addNewTaskPeople(
  db: Db,
  taskId: string,
  by: string,
  assignees: readonly string[],
  subscribers: readonly string[],
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
  if (subscribers.length > 0) {
    sql(
      db,
      `INSERT INTO task_subscribers (task_id, user_id, position)
       VALUES ${rows(subscribers.length, '(?, ?, ?)')}`,
    ).run(...subscribers.flatMap((userId, i) => [taskId, userId, i]));
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
