/**
 * One shape for a task, whichever answer it came from: get/create task (`Task`, with the
 * group's name, no status id, and the number where the service sends it) or update task (`UpdatedTask`, with status id and
 * TaskNumber but only the group's id).
 */
import { priorityNumber, type Task, type UpdatedTask } from '../../workapi/contract.js';

export interface TaskFacts {
  taskId: string;
  name: string;
  projectId?: string;
  description?: string;
  groupId?: string;
  groupName?: string;
  done: boolean;
  statusId?: string;
  /** The status's name when known without its id (the task index was told it). */
  statusName?: string;
  number?: number;
  /** ISO date-time (or yyyy-MM-dd) as the service sent it. */
  dueDate?: string;
  priority?: number;
  estimate?: number;
  milestone?: number;
  assigneeIds: string[];
}

export function factsFromTask(t: Task): TaskFacts {
  return {
    taskId: t.taskId,
    name: t.taskName ?? '',
    projectId: t.projectId,
    description: t.description,
    groupId: t.groupId ?? undefined,
    groupName: t.group ?? undefined,
    done: t.status === true,
    dueDate: t.dueDate ?? undefined,
    priority: priorityNumber(t.priority),
    estimate: t.estimateTime ?? undefined,
    milestone: t.milestoneId ?? undefined,
    assigneeIds: (t.taskUsers ?? []).map((u) => u.taskUserId),
    ...(t.taskNumber !== undefined ? { number: t.taskNumber } : {}),
  };
}

export function factsFromUpdated(u: UpdatedTask): TaskFacts {
  return {
    taskId: u._id,
    name: u.Name ?? '',
    projectId: u.ProjectId,
    description: u.Desc,
    groupId: u.GroupId ?? undefined,
    done: u.Status === true,
    statusId: u.StatusId,
    number: u.TaskNumber,
    dueDate: u.DueDate ?? undefined,
    priority: priorityNumber(u.Priority),
    assigneeIds: (u.TaskUsers ?? []).map((x) => x._id),
  };
}

/** A task read with get task, updated with what update task added (status id, number). */
export function mergeFacts(read: TaskFacts, updated: TaskFacts): TaskFacts {
  return {
    ...read,
    done: updated.done,
    statusId: updated.statusId ?? read.statusId,
    number: updated.number ?? read.number,
  };
}
