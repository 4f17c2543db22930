import type { TaskComment } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { newId } from './new-ids.js';
import { dateTimeOf, nowIso } from './time.js';

/**
 * One entry of a task's Comments array: a posted comment (type 1) or a change record
 * (types 2-8, ACTIVITY_TYPE). Only the fields of the entry's type are set; the rest are null.
 * Groups are recorded by name (what a reader of the history wants), assignees by user id.
 */
export interface ActivityInput {
  type: number;
  comment?: string;
  assignee?: string;
  priority?: number;
  previousPriority?: number;
  dueDate?: string | null;
  previousDueDate?: string | null;
  group?: string | null;
  previousGroup?: string | null;
  status?: boolean;
  estimateTime?: number | null;
}

export function recordActivity(db: Db, taskId: string, userId: string, a: ActivityInput): string {
  const id = newId();
  sql(
    db,
    `INSERT INTO activities (id, task_id, type, comment, assignee, priority, previous_priority,
       due_date, previous_due_date, group_name, previous_group_name, status, estimate_time,
       created_by, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    taskId,
    a.type,
    a.comment ?? null,
    a.assignee ?? null,
    a.priority ?? null,
    a.previousPriority ?? null,
    a.dueDate ?? null,
    a.previousDueDate ?? null,
    a.group ?? null,
    a.previousGroup ?? null,
    a.status === undefined ? null : a.status ? 1 : 0,
    a.estimateTime ?? null,
    userId,
    nowIso(),
  );
  return id;
}

interface ActivityRow {
  id: string;
  type: number;
  comment: string | null;
  assignee: string | null;
  priority: number | null;
  previous_priority: number | null;
  due_date: string | null;
  previous_due_date: string | null;
  group_name: string | null;
  previous_group_name: string | null;
  status: number | null;
  estimate_time: number | null;
  created_by: string;
  created_at: string;
}

/** The task's Comments array, oldest first. */
export function taskComments(db: Db, taskId: string): TaskComment[] {
  const rows = sql<ActivityRow>(
    db,
    `SELECT id, type, comment, assignee, priority, previous_priority, due_date,
            previous_due_date, group_name, previous_group_name, status, estimate_time,
            created_by, created_at
       FROM activities WHERE task_id = ? ORDER BY seq`,
  ).all(taskId);
  return rows.map((r) => ({
    _id: r.id,
    Type: r.type,
    CreatedTime: r.created_at,
    CreatedBy: r.created_by,
    UpdatedBy: r.created_by,
    UpdatedTime: r.created_at,
    IsScm: false,
    Comment: r.comment,
    Assignee: r.assignee,
    PreviousPriority: r.previous_priority,
    Priority: r.priority,
    DueDate: dateTimeOf(r.due_date),
    PreviousDueDate: dateTimeOf(r.previous_due_date),
    Group: r.group_name,
    PreviousGroup: r.previous_group_name,
    Status: r.status === null ? null : r.status === 1,
    EstimateTime: r.estimate_time,
    IsArchived: false,
    Reactions: [],
    Audio: null,
    Files: [],
    Reply: null,
  }));
}
