/**
 * The outputs that describe a task (Create a task, Find a task): its id and name, `#N` and a
 * reference the other Worklink steps accept ("#12 in Website relaunch"), and its link ("Open
 * in …": WORK_TASK_URL, or the embedded service's page; links/addresses.ts). The number comes from the task's own answer when it has
 * one, else from the task index.
 */
import type { WorkContext } from '../context/work-context.js';

export interface TaskDescription {
  task_id: string;
  task_name: string;
  task_number?: string;
  task_reference?: string;
  task_url?: string;
}

export async function describeTask(
  ctx: WorkContext,
  task: { taskId: string; name: string; projectId?: string; number?: number },
): Promise<TaskDescription> {
  const indexed =
    task.number === undefined || !task.projectId
      ? await ctx.store.taskIndex.get(ctx.teamId, task.taskId)
      : undefined;
  const number = task.number ?? indexed?.number;
  const projectId = task.projectId || indexed?.projectId;
  const projectName = projectId
    ? (await ctx.store.knownProjects.get(ctx.teamId, projectId))?.projectName
    : undefined;
  const url = ctx.deps.links.task(ctx.teamId, { taskId: task.taskId, number, projectId });
  return {
    task_id: task.taskId,
    task_name: task.name || indexed?.name || task.taskId,
    ...(number !== undefined ? { task_number: `#${number}` } : {}),
    ...(number !== undefined && projectName
      ? { task_reference: `#${number} in ${projectName}` }
      : {}),
    ...(url ? { task_url: url } : {}),
  };
}
