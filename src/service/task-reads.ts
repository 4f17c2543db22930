/**
 * Reading one task: its stored row (what writes compare and change) and its Task answer
 * (operation 4, and the `task` of every task event), built as JSON text by SQLite.
 */
import type { Task } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { notFound } from './errors.js';
import { taskCache } from './task-cache.js';
import type { Caller } from './workspaces.js';

export interface TaskRow {
  id: string;
  project_id: string;
  task_number: number;
  name: string;
  description: string;
  status_id: string;
  complete: number;
  group_id: string | null;
  group_name: string | null;
  priority: number;
  due_date: string | null;
  estimate_time: number | null;
  milestone_id: number | null;
  parent_task_id: string | null;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
  /** JSON array of subscriber ids, in order. */
  subscribers_json: string;
}

const TASK_SELECT = `
  SELECT t.id, t.project_id, t.task_number, t.name, t.description, t.status_id, t.complete,
         t.group_id, g.name AS group_name, t.priority, t.due_date, t.estimate_time,
         t.milestone_id, t.parent_task_id, t.created_by, t.updated_by, t.created_at,
         t.updated_at,
         (SELECT json_group_array(s.user_id ORDER BY s.position)
            FROM task_subscribers s WHERE s.task_id = t.id) AS subscribers_json
    FROM tasks t
    JOIN projects p ON p.id = t.project_id
    LEFT JOIN task_groups g ON g.id = t.group_id`;

/** The task if its project belongs to the workspace. */
function findTask(db: Db, workspaceId: string, taskId: string): TaskRow | undefined {
  return sql<TaskRow>(db, `${TASK_SELECT} WHERE t.id = ? AND p.workspace_id = ?`).get(
    taskId,
    workspaceId,
  );
}

/** A task named in the path: unknown or foreign → 404. */
export function loadTask(db: Db, workspaceId: string, taskId: string): TaskRow {
  const row = findTask(db, workspaceId, taskId);
  if (!row) throw notFound('task', taskId);
  return row;
}

/**
 * The Task shape (operations 2 and 4, and the task events) as JSON text, built by SQLite in
 * one statement: get task is the hottest path, and this skips building objects only to
 * serialise them. It is the one definition of the shape; callers that need an object parse
 * it. Answers are cached (task-cache.ts): a change to anything this JSON shows must call
 * `forgetTask`.
 */
const TASK_JSON = `
  SELECT json_object(
           'taskId', t.id,
           'taskName', t.name,
           'projectId', t.project_id,
           'groupId', t.group_id,
           'group', g.name,
           'description', t.description,
           'status', json(CASE t.complete WHEN 1 THEN 'true' ELSE 'false' END),
           'subscribers', (SELECT json_group_array(s.user_id ORDER BY s.position)
                             FROM task_subscribers s WHERE s.task_id = t.id),
           'dueDate', CASE WHEN t.due_date IS NULL THEN NULL
                           ELSE t.due_date || 'T00:00:00.000Z' END,
           'priority', CAST(t.priority AS TEXT),
           'estimateTime', t.estimate_time,
           'milestoneId', t.milestone_id,
           'taskUsers', (SELECT json_group_array(json_object('taskUserId', a.user_id)
                                                 ORDER BY a.position)
                           FROM task_assignees a WHERE a.task_id = t.id),
           'taskNumber', t.task_number
         ) AS json
    FROM tasks t
    JOIN projects p ON p.id = t.project_id
    LEFT JOIN task_groups g ON g.id = t.group_id
   WHERE t.id = ? AND p.workspace_id = ?`;

/** The Task answer as JSON text, uncached (also inside a write's transaction). */
export function readTaskJson(db: Db, workspaceId: string, taskId: string): string {
  const row = sql<{ json: string }>(db, TASK_JSON).get(taskId, workspaceId);
  if (!row) throw notFound('task', taskId);
  return row.json;
}

/** Operation 4's body as JSON text; unknown or foreign task → 404. */
export function getTaskJson(db: Db, caller: Caller, taskId: string): string {
  const cache = taskCache(db);
  const cached = cache.get(taskId, caller.workspaceId);
  if (cached !== undefined) return cached;
  const json = readTaskJson(db, caller.workspaceId, taskId);
  // Only committed state is cached: this runs outside any transaction of ours.
  if (!db.inTransaction) cache.set(taskId, caller.workspaceId, json);
  return json;
}

/** Operation 4, as an object (TASK_JSON gives the shape). */
export function getTask(db: Db, caller: Caller, taskId: string): Task {
  const task: Task = JSON.parse(getTaskJson(db, caller, taskId));
  return task;
}
