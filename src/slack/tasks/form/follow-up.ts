/**
 * A create the service did not confirm (timed out, or the connection dropped after the request
 * left) may have landed. Instead of "not created … may have been created", Worklink finds out:
 * it lists the project's tasks and looks for one with the submitted name that it did not know
 * before (the task index holds what it had seen); the newest such task is the one. Found: it
 * is reported (and announced) as created. Not found after a few looks: not created. The
 * service unreachable the whole time: unknown, said once.
 */
import type { CreateTaskBody } from '../../../workapi/contract.js';
import type { Acting } from '../../context/acting.js';
import { errMessage } from '../../context/error-replies.js';
import type { WorkContext } from '../../context/work-context.js';
import { esc } from '../../format/text.js';
import { taskChanges } from '../changes.js';
import { factsFromTask } from '../facts.js';
import type { SaveOutcome } from './save.js';

export interface FollowUpOptions {
  /** Looks at the project's tasks; the create may still be under way at the first. */
  attempts?: number;
  delayMs?: number;
}

export async function findUnconfirmedCreate(
  ctx: WorkContext,
  by: Acting,
  body: Pick<CreateTaskBody, 'projectId' | 'name'>,
  options: FollowUpOptions = {},
): Promise<Extract<SaveOutcome, { kind: 'saved' | 'failed' }>> {
  const { attempts = 3, delayMs = 2_000 } = options;
  const name = (body.name ?? '').trim();
  // What Worklink already knew by this name is not the new task.
  const known = new Set(
    (await ctx.store.taskIndex.search(ctx.teamId, name, { projectId: body.projectId, limit: 100 }))
      .filter((t) => t.name.trim() === name)
      .map((t) => t.taskId),
  );
  let reached = false;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await new Promise((r) => setTimeout(r, delayMs));
    try {
      const tasks = await by.work.listTasks({ projectId: body.projectId });
      reached = true;
      const found = tasks.filter((t) => t.taskName?.trim() === name && !known.has(t.taskId)).at(-1);
      if (!found) continue;
      const task = await by.work.getTask(found.taskId);
      const created = await taskChanges(ctx).createdLater(by, task, body.projectId);
      return {
        kind: 'saved',
        facts: factsFromTask(task),
        sentence: `${created.sentence} (The service was slow to confirm it.)`,
        created: true,
      };
    } catch (e) {
      ctx.logger.warn(`Looking for an unconfirmed task in ${body.projectId}: ${errMessage(e)}`);
    }
  }
  return reached
    ? {
        kind: 'failed',
        headline: 'Your task was not created.',
        message: `The work-management service did not confirm *${esc(name)}*, and the project has no such task.`,
      }
    : {
        kind: 'failed',
        headline: 'Worklink could not find out whether your task was created.',
        message: `The work-management service did not confirm *${esc(name)}* and did not answer when asked. Check with \`/work list\` before trying again.`,
      };
}
