/**
 * "Find a task": words of a task's name (or `#12 in <project>`, an id, a link), optionally
 * within one project, looked up in the task index as `/work task` looks. The best match is the
 * answer; finding none completes the step with `found: false` and empty outputs, so a
 * workflow can go on (or branch) instead of failing. A project that does not exist, or a
 * service failure, still fails the step.
 */
import type { IndexedTask } from '../../store/index.js';
import { isWorkApiError } from '../../workapi/client.js';
import type { WorkContext } from '../context/work-context.js';
import { indexedStatusName, statusWords } from '../format/status-words.js';
import { slackIdsFor, workspaceUsers } from '../people/service-users.js';
import { pickProject } from '../shared/project-here.js';
import { factsFromTask } from '../tasks/facts.js';
import { findTask, parseTaskRef } from '../tasks/find-task.js';
import type { StepResult, StepRun, StepSpec } from './run-step.js';
import { STEP } from './steps.js';
import { refFromLink, taskFromInput, withoutCommands } from './task-input.js';
import { describeTask } from './task-outputs.js';

export const findTaskStep: StepSpec<'find_task'> = {
  step: STEP.findTask,
  actorInput: 'run_by',
  run: find,
};

const NONE: StepResult<'find_task'> = { outputs: { found: false } };

async function find({ ctx, inputs }: StepRun): Promise<StepResult<'find_task'>> {
  const words = inputs.text('words');
  if (!words) return { error: 'Nothing to look for: map words of the task’s name into “Words”.' };
  if (words.length > 500) return { error: 'The words are longer than 500 characters.' };
  const projectText = inputs.text('project');
  let projectId: string | undefined;
  if (projectText) {
    const picked = await pickProject(ctx, projectText);
    if (!picked.ok)
      return { error: withoutCommands(picked.error).replace(/ Nothing was created\./, '') };
    projectId = picked.projectId;
  }
  const taskId = await lookUp(ctx, words, projectId, projectText);
  if (!taskId) return NONE;
  let facts: ReturnType<typeof factsFromTask>;
  try {
    facts = factsFromTask(await ctx.work.getTask(taskId));
  } catch (e) {
    // An id or link to a task that is gone is "none found", not a failure.
    if (isWorkApiError(e) && e.kind === 'not_found') return NONE;
    throw e;
  }
  if (projectId && facts.projectId && facts.projectId !== projectId) return NONE;
  const [described, indexed, assignees] = await Promise.all([
    describeTask(ctx, facts),
    ctx.store.taskIndex.get(ctx.teamId, taskId),
    slackAssignees(ctx, facts.assigneeIds),
  ]);
  return {
    outputs: {
      found: true,
      ...described,
      status: statusWords(indexedStatusName(indexed, facts.done), facts.done),
      assignees,
    },
  };
}

/** The task the words mean, best match first; undefined when there is none. */
async function lookUp(
  ctx: WorkContext,
  words: string,
  projectId: string | undefined,
  projectText: string,
): Promise<string | undefined> {
  const ref = /^https?:\/\//i.test(words) ? refFromLink(ctx, words) : parseTaskRef(words);
  if (!ref) return undefined;
  if (ref.kind !== 'words') {
    // "#12" takes its project from the step's Project field.
    const named = ref.kind === 'number' && !ref.projectWords && projectText;
    const found = await taskFromInput(ctx, named ? `${words} in ${projectText}` : words);
    return found.ok ? found.taskId : undefined;
  }
  if (!projectId) {
    const found = await findTask(ctx, ref);
    return found.kind === 'one'
      ? found.taskId
      : found.kind === 'many'
        ? found.tasks[0]?.taskId
        : undefined;
  }
  const search = () => ctx.store.taskIndex.search(ctx.teamId, words, { projectId, limit: 6 });
  let tasks: IndexedTask[] = await search();
  if (
    tasks.length === 0 &&
    (await ctx.deps.indexRefresh.listProject(ctx.teamId, projectId, ctx.work))
  ) {
    tasks = await search();
  }
  return tasks[0]?.taskId;
}

/** The task's assignees as Slack users (those Worklink can match). */
async function slackAssignees(ctx: WorkContext, serviceIds: readonly string[]): Promise<string[]> {
  if (serviceIds.length === 0) return [];
  const users = (await workspaceUsers(ctx)).filter((u) => serviceIds.includes(u.id));
  const slackIds = await slackIdsFor(ctx, users);
  return serviceIds.flatMap((id) => {
    const slackId = slackIds.get(id);
    return slackId ? [slackId] : [];
  });
}
