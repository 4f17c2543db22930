/** Operation 2, create task: one transaction that numbers, stores and announces the task. */
import type { CreateTaskBody, Task } from '../workapi/contract.js';
import { type Db, sql, transact } from './db.js';
import { badRequest } from './errors.js';
import { recordEvent } from './event-outbox.js';
import { JsonText } from './json-text.js';
import { forgetProjectLists } from './list-cache.js';
import { newId } from './new-ids.js';
import { findProject } from './projects.js';
import { defaultStatus, isDoneType } from './statuses.js';
import { checkFeatures, checkReferences } from './task-checks.js';
import { readTaskJson } from './task-reads.js';
import { addAssignees, replaceFiles, subscribe } from './task-relations.js';
import { nowIso } from './time.js';
import type { Caller } from './workspaces.js';

export interface CreateTaskOptions {
  /** Record a task.created event (default true; the demo seed and benchmarks turn it off). */
  emitEvent?: boolean;
}

/**
 * Operation 2 with its answer as JSON text (the Task shape as SQLite builds it, the very
 * text the task.created event carries). The project is a body field, so an unknown one is a
 * 400.
 */
export function createTaskJson(
  db: Db,
  caller: Caller,
  body: CreateTaskBody,
  options: CreateTaskOptions = {},
): string {
  return transact(db, () => {
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
    const assignees = refs.assignees?.ids ?? [];
    addAssignees(db, id, caller.userId, assignees, now);
    // The creator and the assignees follow the task.
    subscribe(db, id, [caller.userId, ...assignees]);
    if (body.files) replaceFiles(db, id, body.files);
    const task = readTaskJson(db, caller.workspaceId, id);
    if (options.emitEvent !== false) {
      recordEvent(db, 'task.created', caller.workspaceId, caller.userId, {
        task: new JsonText(task),
        taskUsers: refs.assignees?.users ?? [],
      });
    }
    return task;
  });
}

/** Operation 2, as an object (for callers inside the service: the seed, benchmarks). */
export function createTask(
  db: Db,
  caller: Caller,
  body: CreateTaskBody,
  options: CreateTaskOptions = {},
): Task {
  const task: Task = JSON.parse(createTaskJson(db, caller, body, options));
  return task;
}
