/**
 * Marking a task complete (`/work done`, the Mark complete button): the project's FIRST
 * Type-3 status by Index, set with update task. An already done task is left alone.
 * Reopening (the Reopen button on a done task's messages) is the way back: the project's
 * default status when it is an open one, else its first open status by Index.
 */
import { STATUS_TYPE, type StatusEntry } from '../../workapi/contract.js';
import { replyError } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { actorOf, factsFromTask, factsFromUpdated, mergeFacts, type TaskFacts } from './facts.js';
import {
  defaultStatus,
  firstDoneStatus,
  loadProjectInfo,
  type ProjectInfo,
  sortStatuses,
} from './project-info.js';

export interface Completion {
  /** True when the task was done already (nothing was sent). */
  already: boolean;
  facts: TaskFacts;
  project: ProjectInfo;
  status?: StatusEntry;
}

/** Thrown when the project has no done status; `message` is the sentence to show. */
export class NoDoneStatusError extends Error {
  override readonly name = 'NoDoneStatusError';
}

export async function completeTask(ctx: WorkContext, taskId: string): Promise<Completion> {
  const read = factsFromTask(await ctx.work.getTask(taskId));
  const projectId = read.projectId ?? '';
  const project = await loadProjectInfo(ctx, projectId, { withGroups: !read.groupName });
  if (read.done) return { already: true, facts: read, project };
  const status = firstDoneStatus(project.statuses);
  if (!status) {
    throw new NoDoneStatusError(
      `Project *${esc(project.name)}* has no done status, so *${esc(read.name)}* cannot be marked complete. Nothing was changed.`,
    );
  }
  const updated = await ctx.work.updateTask(taskId, { projectId, statusId: status._id });
  ctx.deps.activity.emit(ctx.teamId, { kind: 'completed', taskId, projectId, actor: actorOf(ctx) });
  return {
    already: false,
    // Any 2xx set the status, whether or not the answer describes the task.
    facts: updated
      ? mergeFacts(read, factsFromUpdated(updated))
      : { ...read, done: true, statusId: status._id },
    project,
    status,
  };
}

export async function reopenTask(ctx: WorkContext, taskId: string): Promise<Completion> {
  const read = factsFromTask(await ctx.work.getTask(taskId));
  const projectId = read.projectId ?? '';
  const project = await loadProjectInfo(ctx, projectId, { withGroups: !read.groupName });
  if (!read.done) return { already: true, facts: read, project };
  const isOpen = (s: StatusEntry | undefined) => s !== undefined && s.Type !== STATUS_TYPE.done;
  const fallback = defaultStatus(project.statuses);
  const status = isOpen(fallback) ? fallback : sortStatuses(project.statuses).find(isOpen);
  if (!status) {
    throw new NoDoneStatusError(
      `Project *${esc(project.name)}* has no open status, so *${esc(read.name)}* cannot be reopened. Nothing was changed.`,
    );
  }
  const updated = await ctx.work.updateTask(taskId, { projectId, statusId: status._id });
  ctx.deps.activity.emit(ctx.teamId, { kind: 'reopened', taskId, projectId, actor: actorOf(ctx) });
  return {
    already: false,
    facts: updated
      ? mergeFacts(read, factsFromUpdated(updated))
      : { ...read, done: false, statusId: status._id },
    project,
    status,
  };
}

/** "Reopened *X* (status To Do)." / "*X* is open already." */
export function reopenSentence(c: Completion): string {
  const name = `*${esc(c.facts.name || c.facts.taskId)}*`;
  if (c.already) return `${name} is open already; nothing was changed.`;
  return `Reopened ${name} (status *${esc(c.status?.Name ?? 'To Do')}*).`;
}

/** "Marked *X* complete (status Done)." / "*X* is already done." */
export function completionSentence(c: Completion): string {
  const name = `*${esc(c.facts.name || c.facts.taskId)}*`;
  if (c.already) return `${name} is already done; nothing was changed.`;
  return `Marked ${name} complete (status *${esc(c.status?.Name ?? 'Done')}*).`;
}

/** Answers a failed `completeTask`: the no-done-status sentence, else the service's problem. */
export async function replyCompletionError(
  ctx: WorkContext,
  err: unknown,
  taskId: string,
): Promise<void> {
  if (err instanceof NoDoneStatusError) {
    await ctx.reply(err.message);
    return;
  }
  await replyError(ctx, err, {
    action: 'mark the task complete',
    id: taskId,
    checkWith: `\`/work task ${taskId}\``,
  });
}
