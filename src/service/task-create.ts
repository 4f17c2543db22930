/** Operation 2, create task: one transaction that numbers, stores and announces the task. */
import type { CreateTaskBody, Task } from '../workapi/contract.js';
import { type Db, sql, transact } from './db.js';
import { badRequest } from './errors.js';
import { recordEvent } from './event-outbox.js';
import { JsonText } from './json-text.js';
import { forgetProjectLists } from './list-cache.js';
import { newId } from './new-ids.js';
import { referenceCache } from './reference-cache.js';
import { isDoneType } from './statuses.js';
import { checkFeatures, checkReferences } from './task-checks.js';
import { storableText, taskJson } from './task-json.js';
import { addNewTaskAssignees, replaceFiles } from './task-relations.js';
import { nowIso } from './time.js';
import type { Caller } from './workspaces.js';

export interface CreateTaskOptions {
  /** Record a task.created event (default true; the demo seed and benchmarks turn it off). */
  emitEvent?: boolean;
}

/**
 * Operation 2 with its answer as JSON text (task-json.ts), built from the values written
 * rather than read back; the task.created event carries the same text. The project is a
 * body field, so an unknown one is a 400.
 */
export function createTaskJson(
  db: Db,
  caller: Caller,
  body: CreateTaskBody,
  options: CreateTaskOptions = {},
): string {
  return transact(db, () => {
    const cache = referenceCache(db);
    const refs = cache.project(caller.workspaceId, body.projectId);
    if (!refs) throw badRequest('projectId', 'no project with this id in this workspace');
    const project = refs.project;
    // Before any check, as updateTask does: cached lists of the project may soon be stale.
    forgetProjectLists(db, project.id);
    checkFeatures(project, body);
    const checked = checkReferences(cache, caller, refs, body);
    const status = checked.status ?? refs.defaultStatus;
    const priority =
      body.priority ?? (project.priority_enabled === 1 ? project.default_priority : 0);
    const id = newId();
    const now = nowIso();
    const taskNumber = (refs.lastTaskNumber ?? lastTaskNumber(db, project.id)) + 1;
    const name = storableText(body.name ?? body.taskName ?? '');
    const description = storableText(body.description ?? '');
    const complete = isDoneType(status.type) ? 1 : 0;
    const assignees = checked.assignees?.ids ?? [];
    // The creator and the assignees follow the task, the creator first.
    const subscribers = [caller.userId, ...assignees.filter((a) => a !== caller.userId)];
    sql(
      db,
      `INSERT INTO tasks (id, project_id, task_number, name, description, status_id, complete,
         group_id, priority, due_date, estimate_time, milestone_id, created_by, updated_by,
         created_at, updated_at, subscriber_ids)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      project.id,
      taskNumber,
      name,
      description,
      status.id,
      complete,
      checked.group?.id ?? null,
      priority,
      body.dueDate ?? null,
      body.estimateTime ?? null,
      body.milestoneId ?? null,
      caller.userId,
      caller.userId,
      now,
      now,
      JSON.stringify(subscribers),
    );
    // Kept for the next create (reference-cache.ts); a rollback from here on drops it.
    refs.lastTaskNumber = taskNumber;
    addNewTaskAssignees(db, id, caller.userId, assignees, now);
    if (body.files) replaceFiles(db, id, body.files);
    const task = taskJson({
      id,
      name,
      projectId: project.id,
      groupId: checked.group?.id ?? null,
      groupName: checked.group?.name ?? null,
      description,
      complete,
      subscriberIds: subscribers,
      dueDate: body.dueDate ?? null,
      priority,
      estimateTime: body.estimateTime ?? null,
      milestoneId: body.milestoneId ?? null,
      assigneeIds: assignees,
      taskNumber,
    });
    if (options.emitEvent !== false) {
      recordEvent(
        db,
        'task.created',
        caller.workspaceId,
        caller.userId,
        { task: new JsonText(task), taskUsers: checked.assignees?.users ?? [] },
        now,
      );
    }
    return task;
  });
}

/**
 * The project's largest task number, 0 if none (tasks_by_number holds it last): a new task
 * gets one more. Tasks are deleted only with their project, so a number is never given twice.
 */
function lastTaskNumber(db: Db, projectId: string): number {
  const row = sql<{ last: number }>(
    db,
    'SELECT COALESCE(MAX(task_number), 0) AS last FROM tasks WHERE project_id = ?',
  ).get(projectId);
  return row?.last ?? 0;
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
