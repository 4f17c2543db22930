/**
 * Every task created from Slack (modal, `/work add`, shortcuts) goes through here: create
 * task, then announceNewTask (the assignees' DMs), and one sentence that says both.
 */
import type { CreateTaskBody, Task } from '../../workapi/contract.js';
import { errMessage } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { announceNewTask, describeAssignmentReport } from '../notify/announce.js';
import { serviceUserOf } from '../people/service-user-of.js';
import type { TaskFacts } from './facts.js';

export interface Created {
  /** The task as the service described it; undefined when its answer did not say. */
  task?: Task;
  /** "Created task *X* in *Project*. 2 of 3 assignees notified …" */
  sentence: string;
  /** The assignment report when someone could not be told ('' when all were). */
  notifyProblem?: string;
}

export async function createTaskFromSlack(
  ctx: WorkContext,
  body: CreateTaskBody,
  projectName?: string,
): Promise<Created> {
  const task = await ctx.work.createTask(body);
  if (!task) {
    const where = await projectPhrase(ctx, body.projectId, projectName);
    // Any 2xx created it; without an id there is no card to show and no task to announce
    // now. The watcher finds it in the project's list (a new id) and announces it then.
    const later =
      body.taskUsers?.length && ctx.deps.watcher.enabled
        ? ' Its assignees are told when Worklink next looks at the project.'
        : '';
    return { sentence: `Task created${where}; the service did not return its id.${later}` };
  }
  return announceAndDescribe(ctx, task, body.projectId, projectName);
}

/** " in *Project*", or '' when the project's name is not known. */
async function projectPhrase(
  ctx: WorkContext,
  projectId: string,
  projectName?: string,
): Promise<string> {
  const project =
    projectName ?? (await ctx.store.knownProjects.get(ctx.teamId, projectId))?.projectName;
  return project ? ` in *${esc(project)}*` : '';
}

/** A task now known to be created: its assignees told, and the sentence that says both. */
export async function announceAndDescribe(
  ctx: WorkContext,
  task: Task,
  projectId: string,
  projectName?: string,
): Promise<Required<Created>> {
  const where = await projectPhrase(ctx, task.projectId || projectId, projectName);
  const { report, problem } = await announceCreated(ctx, task);
  // Only a name the service sent back is shown as the task's name.
  const name = task.taskName ? `*${esc(task.taskName)}*` : `\`${task.taskId}\``;
  const head = `Created task ${name}${where}.`;
  return { task, sentence: report ? `${head} ${report}` : head, notifyProblem: problem };
}

/**
 * The assignment report's sentence ('' when nobody else is assigned) and, when someone could
 * not be told, the same as `problem`. Never throws.
 */
async function announceCreated(
  ctx: WorkContext,
  task: Task,
): Promise<{ report: string; problem: string }> {
  try {
    const report = await announceNewTask(
      {
        slack: ctx.slack,
        work: ctx.work,
        store: ctx.store,
        logger: ctx.logger,
        directory: ctx.deps.directory,
        matcher: ctx.deps.matcher,
      },
      { teamId: ctx.teamId, task, actor: { slackUserId: ctx.userId } },
    );
    const sentence = describeAssignmentReport(report);
    const others = report.assignees - (report.skippedActor ? 1 : 0);
    return { report: sentence, problem: report.notified < others ? sentence : '' };
  } catch (e) {
    ctx.logger.error(`Announcing task ${task.taskId} failed: ${errMessage(e)}`);
    const sentence = 'The assignees could not be notified right now.';
    return { report: sentence, problem: sentence };
  }
}

/**
 * Tells the activity hub of a task made from Slack, once its confirmation card is posted (a
 * feed in that same channel has placed it already). `source`: the message it was made from,
 * whose thread is answered. The author's service user is looked up first (DMs about the task
 * later know its creator); returns at once, never throws.
 */
export function tellCreated(
  ctx: WorkContext,
  facts: Pick<TaskFacts, 'taskId' | 'projectId' | 'assigneeIds'>,
  source?: { channel: string; ts: string },
): void {
  void serviceUserOf(ctx, ctx.userId)
    .then(
      (who) => (who.ok ? who.ids[0] : undefined),
      (e: unknown) => {
        ctx.logger.debug(`The service user of ${ctx.userId}: ${errMessage(e)}`);
        return undefined;
      },
    )
    .then((serviceUserId) =>
      ctx.deps.activity.emit(ctx.teamId, {
        kind: 'created',
        taskId: facts.taskId,
        projectId: facts.projectId,
        actor: { slackUserId: ctx.userId, ...(serviceUserId ? { serviceUserId } : {}) },
        assigneeIds: facts.assigneeIds,
        ...(source ? { source } : {}),
      }),
    );
}
