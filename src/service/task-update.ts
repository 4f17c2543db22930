/**
 * Operations 5 and 6, the writes to an existing task: a partial update, which records each
 * change in the task's history and announces it (task.updated), and a comment
 * (task.commented).
 */
import { z } from 'zod';
import { ACTIVITY_TYPE, type UpdatedTask, type UpdateTaskBody } from '../workapi/contract.js';
import { recordActivity, taskComments } from './activity.js';
import { type Db, sql, transact } from './db.js';
import { badRequest, notFound } from './errors.js';
import { JsonText } from './json-text.js';
import { forgetProjectLists } from './list-cache.js';
import { referenceCache } from './reference-cache.js';
import { isDoneType } from './statuses.js';
import { forgetTask } from './task-cache.js';
import { checkFeatures, checkReferences } from './task-checks.js';
import { recordTaskCommented, recordTaskUpdated, taskChanges } from './task-events.js';
import { storableText } from './task-json.js';
import { loadTask, readTaskJson, type TaskRow } from './task-reads.js';
import { addAssignees, assigneeIds, replaceFiles, subscribe } from './task-relations.js';
import { dateTimeOf, nowIso } from './time.js';
import type { Caller } from './workspaces.js';

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
  return transact(db, () => {
    const task = loadTask(db, caller.workspaceId, taskId);
    // Before any check: whatever happens next, the cached JSON may no longer be the truth.
    forgetTask(db, task.id);
    forgetProjectLists(db, task.project_id);
    if (body.projectId !== task.project_id) {
      throw badRequest('projectId', `must be the task's own project (${task.project_id})`);
    }
    const cache = referenceCache(db);
    const project = cache.project(caller.workspaceId, task.project_id);
    if (!project) throw notFound('project', task.project_id);
    checkFeatures(project.project, body);
    const refs = checkReferences(cache, caller, project, body);
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
    const assigneeChange: { added: string[]; removed: string[] } = { added: [], removed: [] };
    if (refs.assignees) {
      const wanted = refs.assignees.ids;
      const before = assigneeIds(db, task.id);
      const added = wanted.filter((id) => !before.includes(id));
      const removed = before.filter((id) => !wanted.includes(id));
      assigneeChange.added = added;
      assigneeChange.removed = removed;
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
      storableText(body.name ?? body.taskName ?? task.name),
      storableText(body.description ?? task.description),
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
      new JsonText(readTaskJson(db, caller.workspaceId, task.id)),
      taskChanges(db, task, after, assigneeChange),
    );
    return updatedTaskResponse(db, after);
  });
}

/** Operation 6: a comment by the acting user, recorded as a type 1 entry. */
export function postComment(
  db: Db,
  caller: Caller,
  taskId: string,
  content: string,
): { commentId: string; content: string } {
  return transact(db, () => {
    const task = loadTask(db, caller.workspaceId, taskId);
    const commentId = recordActivity(db, task.id, caller.userId, {
      type: ACTIVITY_TYPE.comment,
      comment: content,
    });
    recordTaskCommented(db, caller, new JsonText(readTaskJson(db, caller.workspaceId, task.id)), {
      commentId,
      content,
      createdTime: nowIso(),
    });
    return { commentId, content };
  });
}

interface AssigneeRow {
  _id: string;
  CreatedBy: string;
  UpdatedBy: string;
  CreatedTime: string;
  UpdatedTime: string;
}

const subscriberIds = z.array(z.string());

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
    Subscribers: subscriberIds.parse(JSON.parse(row.subscribers_json)),
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
