/**
 * A task the watcher found (src/sync/watcher.ts) goes into the outbox as a `task.created`
 * event would: one row per assignee, unique per (team, task, person), so a DM already queued
 * by Slack's create path or by an event is never queued twice. The rows wait a grace period
 * first, so when the task was made from Slack, the Slack path's rows (which know who acted
 * in Slack) take them over.
 */
import type { Actor } from '../activity/hub.js';
import type { SeenTask } from '../activity/seen.js';
import type { Store } from '../store/index.js';
import { CREATOR_SKIPPED, type NewOutboxRow } from '../store/index.js';
import type { Task } from '../workapi/contract.js';
import { readId } from '../workapi/fields.js';

/** Queues the found task's DMs; returns how many rows were new. */
export async function queueFoundTask(
  store: Store,
  teamId: string,
  task: Task,
  options: { now: number; graceMs: number },
): Promise<number> {
  const assignees = assigneesOf(task);
  if (assignees.length === 0) return 0;
  const creator = creatorOf(task);
  const project = task.projectId
    ? await store.knownProjects.get(teamId, task.projectId)
    : undefined;
  const rows: NewOutboxRow[] = assignees.map((serviceUserId) => {
    const isCreator = serviceUserId === creator;
    return {
      teamId,
      taskId: task.taskId,
      serviceUserId,
      source: 'event',
      actorServiceUserId: creator,
      taskName: task.taskName ?? '',
      projectId: task.projectId,
      projectName: project?.projectName,
      dueDate: task.dueDate ?? undefined,
      priority: task.priority,
      status: isCreator ? 'skipped' : 'pending',
      lastError: isCreator ? CREATOR_SKIPPED : undefined,
      notBefore: options.now + options.graceMs,
    };
  });
  const queued = (await store.outbox.enqueue(rows, 'ignore', options.now)).length;
  store.outbox.changed();
  return queued;
}

/** The found task as `seen` (src/activity/seen.ts) is told it, and who made it. */
export function foundTaskSeen(task: Task): { task: SeenTask; actor?: Actor } {
  const creator = creatorOf(task);
  return {
    task: {
      taskId: task.taskId,
      projectId: task.projectId,
      assigneeIds: assigneesOf(task),
      done: task.status === true,
    },
    actor: creator ? { serviceUserId: creator } : undefined,
  };
}

const assigneesOf = (task: Task) => [...new Set((task.taskUsers ?? []).map((u) => u.taskUserId))];

/** Not in the spec's Task, but the hosted service's documents say who made it. */
function creatorOf(task: Task): string | undefined {
  const raw = task as Record<string, unknown>;
  return readId(raw.CreatedBy) ?? readId(raw.createdBy);
}
