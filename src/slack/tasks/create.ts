/**
 * The creation half of the task-change owner (changes.ts: `create`, `createdLater`, `shown`):
 * a task the service confirmed has its assignees told (announceNewTask, the assignees' DMs)
 * and one sentence that says both; once the caller has shown it, its creator is noted and
 * the `created` activity emitted.
 */
import type { Task } from '../../workapi/contract.js';
import type { Acting } from '../context/acting.js';
import { errMessage, orDebug } from '../context/error-replies.js';
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

/** " in *Project*", or '' when the project's name is not known. */
export async function projectPhrase(
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
  by: Acting,
  task: Task,
  projectId: string,
  projectName?: string,
): Promise<Required<Created>> {
  const where = await projectPhrase(ctx, task.projectId || projectId, projectName);
  const { report, problem } = await announceCreated(ctx, by, task);
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
  by: Acting,
  task: Task,
): Promise<{ report: string; problem: string }> {
  try {
    const report = await announceNewTask(
      {
        slack: ctx.slack,
        work: by.work,
        store: ctx.store,
        logger: ctx.logger,
        directory: ctx.deps.directory,
        matcher: ctx.deps.matcher,
      },
      {
        teamId: by.teamId,
        task,
        actor: { slackUserId: by.slackUserId },
      },
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
 * later know its creator) and noted as its creator; returns at once, never throws.
 */
export function tellCreated(
  ctx: WorkContext,
  by: Acting,
  facts: Pick<TaskFacts, 'taskId' | 'projectId' | 'assigneeIds'>,
  source?: { channel: string; ts: string },
): void {
  const slackUserId = by.slackUserId;
  const lookup: Promise<string | undefined> = by.serviceUserId
    ? Promise.resolve(by.serviceUserId)
    : slackUserId
      ? serviceUserOf(ctx, slackUserId).then(
          (who) => (who.ok ? who.ids[0] : undefined),
          (e: unknown) => {
            ctx.logger.debug(`The service user of ${slackUserId}: ${errMessage(e)}`);
            return undefined;
          },
        )
      : Promise.resolve(undefined);
  void lookup.then(async (serviceUserId) => {
    const actor = {
      ...(slackUserId ? { slackUserId } : {}),
      ...(serviceUserId ? { serviceUserId } : {}),
    };
    await ctx.store.taskCreators
      .note(by.teamId, facts.taskId, actor)
      .catch(orDebug(ctx.logger, `Noting the creator of ${facts.taskId}`, undefined));
    ctx.deps.activity.emit(by.teamId, {
      kind: 'created',
      taskId: facts.taskId,
      projectId: facts.projectId,
      actor,
      assigneeIds: facts.assigneeIds,
      ...(source ? { source } : {}),
    });
  });
}
