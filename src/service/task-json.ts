/**
 * The Task shape (operations 2 and 4, and the `task` of every task event) as JSON text: the
 * one definition of it. Reads (task-reads.ts) build it from the stored row; create task
 * (task-create.ts) builds it from the values it has just written, without reading them back.
 * test/service/task-answer.test.ts checks, for varied tasks, that the two give the same text.
 */
import type { Task } from '../workapi/contract.js';

/** What a Task answer shows, as stored. */
export interface TaskJsonFields {
  id: string;
  name: string;
  projectId: string;
  groupId: string | null;
  groupName: string | null;
  description: string;
  /** 1 when the task's status has Type 3 (done). */
  complete: number;
  /** In position order. */
  subscriberIds: readonly string[];
  /** yyyy-MM-dd or null. */
  dueDate: string | null;
  priority: number;
  estimateTime: number | null;
  milestoneId: number | null;
  /** In position order. */
  assigneeIds: readonly string[];
  taskNumber: number;
}

export function taskJson(t: TaskJsonFields): string {
  const task: Task = {
    taskId: t.id,
    taskName: t.name,
    projectId: t.projectId,
    groupId: t.groupId,
    group: t.groupName,
    description: t.description,
    status: t.complete === 1,
    subscribers: [...t.subscriberIds],
    dueDate: t.dueDate === null ? null : `${t.dueDate}T00:00:00.000Z`,
    priority: String(t.priority),
    estimateTime: t.estimateTime,
    milestoneId: t.milestoneId,
    taskUsers: t.assigneeIds.map((taskUserId) => ({ taskUserId })),
    taskNumber: t.taskNumber,
  };
  return JSON.stringify(task);
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Text as SQLite will hold it: a lone surrogate (not valid Unicode, so not storable as UTF-8)
 * becomes U+FFFD. Without this, better-sqlite3 stores its three CESU-8 bytes, which read back
 * as three U+FFFD, and an answer built from the request would differ from one read back.
 */
export function storableText(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(/\p{Surrogate}/gu, '\uFFFD') : text;
}
