/**
 * Reading one task: its stored row (what writes compare and change) and its Task answer
 * (operation 4, and the `task` of every task event) as JSON text (task-json.ts).
 */
import { z } from 'zod';
import type { Task } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { notFound } from './errors.js';
import { taskCache } from './task-cache.js';
import { taskJson } from './task-json.js';
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
         t.updated_at, t.subscriber_ids AS subscribers_json
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

/** What the Task answer shows of a stored task: its row, its group's name, its people. */
interface TaskJsonRow {
  id: string;
  name: string;
  project_id: string;
  group_id: string | null;
  group_name: string | null;
  description: string;
  complete: number;
  due_date: string | null;
  priority: number;
  estimate_time: number | null;
  milestone_id: number | null;
  task_number: number;
  /** JSON arrays of user ids, in position order. */
  subscribers_json: string;
  assignees_json: string;
}

/**
 * One statement for everything the Task answer shows (task-json.ts builds the text). Answers
 * are cached (task-cache.ts): a change to anything it shows must call `forgetTask`.
 */
const TASK_JSON_SELECT = `
  SELECT t.id, t.name, t.project_id, t.group_id, g.name AS group_name, t.description,
         t.complete, t.due_date, t.priority, t.estimate_time, t.milestone_id, t.task_number,
         t.subscriber_ids AS subscribers_json,
         (SELECT json_group_array(a.user_id ORDER BY a.position)
            FROM task_assignees a WHERE a.task_id = t.id) AS assignees_json
    FROM tasks t
    JOIN projects p ON p.id = t.project_id
    LEFT JOIN task_groups g ON g.id = t.group_id
   WHERE t.id = ? AND p.workspace_id = ?`;

const userIds = z.array(z.string());

/** The Task answer as JSON text, uncached (also inside a write's transaction). */
export function readTaskJson(db: Db, workspaceId: string, taskId: string): string {
  const row = sql<TaskJsonRow>(db, TASK_JSON_SELECT).get(taskId, workspaceId);
  if (!row) throw notFound('task', taskId);
  return taskJson({
    id: row.id,
    name: row.name,
    projectId: row.project_id,
    groupId: row.group_id,
    groupName: row.group_name,
    description: row.description,
    complete: row.complete,
    subscriberIds: userIds.parse(JSON.parse(row.subscribers_json)),
    dueDate: row.due_date,
    priority: row.priority,
    estimateTime: row.estimate_time,
    milestoneId: row.milestone_id,
    assigneeIds: userIds.parse(JSON.parse(row.assignees_json)),
    taskNumber: row.task_number,
  });
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

/** Operation 4, as an object (task-json.ts gives the shape). */
export function getTask(db: Db, caller: Caller, taskId: string): Task {
  const task: Task = JSON.parse(getTaskJson(db, caller, taskId));
  return task;
}
