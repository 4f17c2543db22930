import {
  ACTIVITY_TYPE,
  type CreateTaskBody,
  type ListTasksQuery,
  type Task,
  type TaskListItem,
  type UpdatedTask,
  type UpdateTaskBody,
} from '../workapi/contract.js';
import { recordActivity, taskComments } from './activity.js';
import { type Db, sql } from './db.js';
import { badRequest, notFound } from './errors.js';
import { recordEvent } from './event-outbox.js';
import { findGroup } from './groups.js';
import { forgetProjectLists, type ListAnswer, listCache, listKey } from './list-cache.js';
import { newId } from './new-ids.js';
import { featuresOf, findProject, loadProject, type ProjectRow } from './projects.js';
import { defaultStatus, findStatus, isDoneType } from './statuses.js';
import { forgetTask, taskCache } from './task-cache.js';
import { recordTaskCommented, recordTaskUpdated, taskChanges } from './task-events.js';
import { dateTimeOf, nowIso } from './time.js';
import { usersByIds } from './users.js';
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

/**
 * The Task shape (operations 2 and 4, and the task.created event) as JSON text, built by
 * SQLite in one statement: get task is the hottest path, and this skips building objects
 * only to serialise them. It is the one definition of the shape; callers that need an
 * object parse it. Answers are cached (task-cache.ts): a change to anything this JSON shows
 * must call `forgetTask`.
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

function readTaskJson(db: Db, workspaceId: string, taskId: string): string {
  const row = sql<{ json: string }>(db, TASK_JSON).get(taskId, workspaceId);
  if (!row) throw notFound('task', taskId);
  return row.json;
}

/** The Task shape as an object, uncached (inside a write's transaction). */
function readTask(db: Db, workspaceId: string, taskId: string): Task {
  return JSON.parse(readTaskJson(db, workspaceId, taskId)) as Task;
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

/** Operation 4. */
export function getTask(db: Db, caller: Caller, taskId: string): Task {
  return JSON.parse(getTaskJson(db, caller, taskId)) as Task;
}

/** A task named in the path: unknown or foreign → 404. */
function loadTask(db: Db, workspaceId: string, taskId: string): TaskRow {
  const row = findTask(db, workspaceId, taskId);
  if (!row) throw notFound('task', taskId);
  return row;
}

/** Which project feature each task field needs (docs/design.md, feature flags). */
const FEATURE_OF_FIELD = {
  priority: 'priority',
  estimateTime: 'estimate',
  milestoneId: 'milestone',
  groupId: 'groups',
} as const;

/** Refuses a task field whose feature is off for the project. */
function checkFeatures(project: ProjectRow, body: CreateTaskBody): void {
  const enabled = featuresOf(project);
  for (const [field, feature] of Object.entries(FEATURE_OF_FIELD)) {
    if (body[field as keyof typeof FEATURE_OF_FIELD] !== undefined && !enabled[feature]) {
      throw badRequest(field, `the ${feature} feature is off for this project`);
    }
  }
}

/** Body references checked against the project and workspace; each unknown one is a 400. */
function checkReferences(db: Db, caller: Caller, project: ProjectRow, body: CreateTaskBody) {
  const status =
    body.statusId === undefined ? undefined : findStatus(db, project.id, body.statusId);
  if (body.statusId !== undefined && !status) {
    throw badRequest('statusId', 'no status with this id in this project');
  }
  const group = body.groupId === undefined ? undefined : findGroup(db, project.id, body.groupId);
  if (body.groupId !== undefined && !group) {
    throw badRequest('groupId', 'no group with this id in this project');
  }
  let assignees: string[] | undefined;
  if (body.taskUsers !== undefined) {
    assignees = [...new Set(body.taskUsers)];
    const known = new Set(usersByIds(db, caller.workspaceId, assignees).map((u) => u.id));
    const unknown = assignees.find((id) => !known.has(id));
    if (unknown !== undefined) {
      throw badRequest('taskUsers', `no user ${unknown} in this workspace`);
    }
  }
  return { status, group, assignees };
}

export interface CreateTaskOptions {
  /** Record a task.created event (default true; the demo seed and benchmarks turn it off). */
  emitEvent?: boolean;
}

/** Operation 2. The project is a body field, so an unknown one is a 400. */
export function createTask(
  db: Db,
  caller: Caller,
  body: CreateTaskBody,
  options: CreateTaskOptions = {},
): Task {
  return db.transaction(() => {
    const project = findProject(db, caller.workspaceId, body.projectId);
    if (!project) throw badRequest('projectId', 'no project with this id in this workspace');
    // Before any check, as updateTask does: cached lists of the project may soon be stale.
    forgetProjectLists(db, project.id);
    checkFeatures(project, body);
    const refs = checkReferences(db, caller, project, body);
    const status = refs.status ?? defaultStatus(db, project.id);
    const priority =
      body.priority ?? (project.priority_enabled === 1 ? project.default_priority : 0);
    const id = newId();
    const now = nowIso();
    sql(db, 'UPDATE projects SET next_task_number = next_task_number + 1 WHERE id = ?').run(
      project.id,
    );
    sql(
      db,
      `INSERT INTO tasks (id, project_id, task_number, name, description, status_id, complete,
         group_id, priority, due_date, estimate_time, milestone_id, created_by, updated_by,
         created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      project.id,
      project.next_task_number,
      body.name ?? body.taskName ?? '',
      body.description ?? '',
      status.id,
      isDoneType(status.type) ? 1 : 0,
      body.groupId ?? null,
      priority,
      body.dueDate ?? null,
      body.estimateTime ?? null,
      body.milestoneId ?? null,
      caller.userId,
      caller.userId,
      now,
      now,
    );
    const assignees = refs.assignees ?? [];
    addAssignees(db, id, caller.userId, assignees, now);
    // The creator and the assignees follow the task.
    subscribe(db, id, [caller.userId, ...assignees]);
    if (body.files) replaceFiles(db, id, body.files);
    const task = readTask(db, caller.workspaceId, id);
    if (options.emitEvent !== false) {
      recordEvent(db, 'task.created', caller.workspaceId, caller.userId, {
        task,
        taskUsers: usersByIds(db, caller.workspaceId, assignees),
      });
    }
    return task;
  })();
}

/** List tasks' query once validated: `complete` is a boolean by then. */
export type ListTaskQuery = Pick<ListTasksQuery, 'projectId' | 'limit' | 'offset'> & {
  complete?: boolean | 'true' | 'false';
};

/**
 * Operation 3 as JSON text, answered from the list cache (list-cache.ts) when this query was
 * answered before and no write to the project's tasks came since. The project is in the
 * query: unknown → 404.
 */
export function listTasksJson(db: Db, caller: Caller, query: ListTaskQuery): ListAnswer {
  const complete =
    query.complete === undefined
      ? undefined
      : query.complete === true || query.complete === 'true'
        ? 1
        : 0;
  const cache = listCache(db);
  const key = listKey(caller.workspaceId, query.projectId, complete, query.limit, query.offset);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const project = loadProject(db, caller.workspaceId, query.projectId);
  const answer = readList(db, project.id, complete, query);
  // Only committed state is cached: this runs outside any transaction of ours.
  if (!db.inTransaction) cache.set(key, project.id, answer);
  return answer;
}

/**
 * Operation 3 uncached: the matches by TaskNumber, as JSON bytes (SQLite builds the array: a project
 * of 10,000 tasks lists without 10,000 intermediate objects). The rows are read in
 * TaskNumber order from the index in a subquery, so the aggregate needs no sort of its own
 * (an ORDER BY inside json_group_array sorts every row in a temporary B-tree). With `limit`
 * or `offset` only that page is built, and `total` is the whole list's length.
 */
function readList(
  db: Db,
  projectId: string,
  complete: 0 | 1 | undefined,
  query: ListTaskQuery,
): ListAnswer {
  const filter = complete === undefined ? '' : 'AND complete = @complete';
  const paged = query.limit !== undefined || query.offset !== undefined;
  const params = {
    project: projectId,
    complete: complete ?? 0,
    limit: query.limit ?? -1,
    offset: query.offset ?? 0,
  };
  const json =
    sql<{ json: string }>(
      db,
      `SELECT json_group_array(json_object('taskId', id, 'taskName', name,
                                           'taskNumber', task_number)) AS json
         FROM (SELECT id, name, task_number FROM tasks WHERE project_id = @project ${filter}
                ORDER BY task_number LIMIT @limit OFFSET @offset)`,
    ).get(params)?.json ?? '[]';
  const body = Buffer.from(json);
  if (!paged) return { body };
  // project_task_counts is kept by triggers on tasks (migrations.ts, entry 2).
  const total =
    sql<{ n: number | null }>(
      db,
      `SELECT SUM(tasks) AS n FROM project_task_counts WHERE project_id = @project ${filter}`,
    ).get(params)?.n ?? 0;
  return { body, total };
}

/** Operation 3, as objects. */
export function listTasks(db: Db, caller: Caller, query: ListTaskQuery): TaskListItem[] {
  return JSON.parse(listTasksJson(db, caller, query).body.toString()) as TaskListItem[];
}

/**
 * Operation 5: a partial update. Fields left out keep their values; `taskUsers` replaces the
 * assignee set; `files` replaces the file list. Every change of a tracked field is recorded
 * in the task's Comments array with its previous value.
 */
export function updateTask(
  db: Db,
  caller: Caller,
  taskId: string,
  body: UpdateTaskBody,
): UpdatedTask {
  return db.transaction(() => {
    const task = loadTask(db, caller.workspaceId, taskId);
    // Before any check: whatever happens next, the cached JSON may no longer be the truth.
    forgetTask(db, task.id);
    forgetProjectLists(db, task.project_id);
    if (body.projectId !== task.project_id) {
      throw badRequest('projectId', `must be the task's own project (${task.project_id})`);
    }
    const project = loadProject(db, caller.workspaceId, task.project_id);
    checkFeatures(project, body);
    const refs = checkReferences(db, caller, project, body);
    const now = nowIso();
    const by = caller.userId;
    const record = (a: Parameters<typeof recordActivity>[3]) => recordActivity(db, task.id, by, a);

    const status = refs.status;
    if (status && status.id !== task.status_id) {
      record({ type: ACTIVITY_TYPE.status, status: isDoneType(status.type) });
    }
    if (body.priority !== undefined && body.priority !== task.priority) {
      record({
        type: ACTIVITY_TYPE.priority,
        priority: body.priority,
        previousPriority: task.priority,
      });
    }
    if (body.dueDate !== undefined && body.dueDate !== task.due_date) {
      record({
        type: ACTIVITY_TYPE.dueDate,
        dueDate: body.dueDate,
        previousDueDate: task.due_date,
      });
    }
    if (refs.group && refs.group.id !== task.group_id) {
      record({ type: ACTIVITY_TYPE.group, group: refs.group.name, previousGroup: task.group_name });
    }
    if (body.estimateTime !== undefined && body.estimateTime !== task.estimate_time) {
      record({ type: ACTIVITY_TYPE.estimate, estimateTime: body.estimateTime });
    }
    let assigneeChange = { added: [] as string[], removed: [] as string[] };
    if (refs.assignees) {
      const before = assigneeIds(db, task.id);
      const added = refs.assignees.filter((id) => !before.includes(id));
      const removed = before.filter((id) => !refs.assignees?.includes(id));
      assigneeChange = { added, removed };
      for (const id of added) record({ type: ACTIVITY_TYPE.assigneeAdded, assignee: id });
      for (const id of removed) record({ type: ACTIVITY_TYPE.assigneeRemoved, assignee: id });
      const drop = sql(db, 'DELETE FROM task_assignees WHERE task_id = ? AND user_id = ?');
      for (const id of removed) drop.run(task.id, id);
      addAssignees(db, task.id, by, added, now);
      subscribe(db, task.id, added);
    }
    if (body.files) replaceFiles(db, task.id, body.files);

    sql(
      db,
      `UPDATE tasks SET name = ?, description = ?, status_id = ?, complete = ?, group_id = ?,
         priority = ?, due_date = ?, estimate_time = ?, milestone_id = ?, updated_by = ?,
         updated_at = ?
       WHERE id = ?`,
    ).run(
      body.name ?? body.taskName ?? task.name,
      body.description ?? task.description,
      status?.id ?? task.status_id,
      status ? (isDoneType(status.type) ? 1 : 0) : task.complete,
      refs.group?.id ?? task.group_id,
      body.priority ?? task.priority,
      body.dueDate ?? task.due_date,
      body.estimateTime ?? task.estimate_time,
      body.milestoneId ?? task.milestone_id,
      by,
      now,
      task.id,
    );
    const after = loadTask(db, caller.workspaceId, task.id);
    recordTaskUpdated(
      db,
      caller,
      readTask(db, caller.workspaceId, task.id),
      taskChanges(db, task, after, assigneeChange),
    );
    return updatedTaskResponse(db, after);
  })();
}

/** Operation 6: a comment by the acting user, recorded as a type 1 entry. */
export function postComment(
  db: Db,
  caller: Caller,
  taskId: string,
  content: string,
): { commentId: string; content: string } {
  return db.transaction(() => {
    const task = loadTask(db, caller.workspaceId, taskId);
    const commentId = recordActivity(db, task.id, caller.userId, {
      type: ACTIVITY_TYPE.comment,
      comment: content,
    });
    recordTaskCommented(db, caller, readTask(db, caller.workspaceId, task.id), {
      commentId,
      content,
      createdTime: nowIso(),
    });
    return { commentId, content };
  })();
}

// ── Parts ────────────────────────────────────────────────────────────────────

/** Appends assignees after the task's existing ones (as `subscribe` does subscribers). */
function addAssignees(db: Db, taskId: string, by: string, userIds: string[], now: string): void {
  const insert = sql(
    db,
    `INSERT INTO task_assignees (task_id, user_id, position, created_by, updated_by, created_at,
       updated_at)
     VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM task_assignees WHERE task_id = ?),
             ?, ?, ?, ?)`,
  );
  for (const userId of userIds) insert.run(taskId, userId, taskId, by, by, now, now);
}

function subscribe(db: Db, taskId: string, userIds: string[]): void {
  const insert = sql(
    db,
    `INSERT OR IGNORE INTO task_subscribers (task_id, user_id, position)
     VALUES (?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM task_subscribers WHERE task_id = ?))`,
  );
  for (const userId of userIds) insert.run(taskId, userId, taskId);
}

function replaceFiles(db: Db, taskId: string, files: NonNullable<CreateTaskBody['files']>): void {
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

function assigneeIds(db: Db, taskId: string): string[] {
  return sql<{ user_id: string }>(
    db,
    'SELECT user_id FROM task_assignees WHERE task_id = ? ORDER BY position',
  )
    .all(taskId)
    .map((r) => r.user_id);
}

interface AssigneeRow {
  _id: string;
  CreatedBy: string;
  UpdatedBy: string;
  CreatedTime: string;
  UpdatedTime: string;
}

/** The Updated task shape (operation 5). Task files are links: uploadFileType 1. */
function updatedTaskResponse(db: Db, row: TaskRow): UpdatedTask {
  const taskUsers = sql<AssigneeRow>(
    db,
    `SELECT user_id AS _id, created_by AS CreatedBy, updated_by AS UpdatedBy,
            created_at AS CreatedTime, updated_at AS UpdatedTime
       FROM task_assignees WHERE task_id = ? ORDER BY position`,
  ).all(row.id);
  const files = sql<{ file_type: string; href: string; size: string; name: string }>(
    db,
    'SELECT file_type, href, size, name FROM task_files WHERE task_id = ? ORDER BY position',
  )
    .all(row.id)
    .map((f) => ({ ...f, uploadFileType: 1 }));
  return {
    _id: row.id,
    Name: row.name,
    ProjectId: row.project_id,
    Subscribers: JSON.parse(row.subscribers_json) as string[],
    GroupId: row.group_id,
    Labels: [],
    TaskUsers: taskUsers,
    Files: files,
    Comments: taskComments(db, row.id),
    CreatedBy: row.created_by,
    UpdatedBy: row.updated_by,
    CreatedTime: row.created_at,
    UpdatedTime: row.updated_at,
    Desc: row.description,
    StatusId: row.status_id,
    Status: row.complete === 1,
    TaskNumber: row.task_number,
    ParentTaskId: row.parent_task_id,
    Priority: row.priority,
    DueDate: dateTimeOf(row.due_date),
  };
}
