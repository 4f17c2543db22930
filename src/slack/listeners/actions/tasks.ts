/**
 * Task buttons, wherever the card or list is (channel message, ephemeral, DM — the
 * notification DMs use the same ids with value = taskId): Comment, Edit, Mark complete,
 * Open, list paging; and the task form's project menu (taskForm.ts).
 */
import type { App } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import {
  errMessage,
  replyError,
  requireConnection,
  runSafely,
  type WorkContext,
  type WorklinkDeps,
  workContext,
} from '../../context.js';
import { taskIdProblem } from '../../parse/ids.js';
import { taskCardData } from '../../tasks/card.js';
import { completeTask, completionSentence, NoDoneStatusError } from '../../tasks/complete.js';
import { factsFromTask } from '../../tasks/facts.js';
import { openTaskForm, slackErrorCode } from '../../tasks/form.js';
import { loadListPage } from '../../tasks/list.js';
import { ACTION } from '../../ui/ids.js';
import { taskCard, taskCardText } from '../../ui/messages/taskCard.js';
import { readListPageValue, taskListMessage } from '../../ui/messages/taskList.js';
import { taskCommentModal } from '../../ui/modals/commentModal.js';
import * as taskForm from './taskForm.js';

type ActionArgs = Parameters<Parameters<App['action']>[1]>[0];

/** The pressed element's value (buttons carry the task id). */
function pressedValue(args: ActionArgs): string {
  return String((args.action as { value?: unknown }).value ?? '').trim();
}

/**
 * Acks, builds the context, checks the connection, then runs `fn`; any failure becomes one
 * sentence to the person who pressed.
 */
function onAction(
  app: App,
  deps: WorklinkDeps,
  actionId: string | RegExp,
  fn: (ctx: WorkContext, args: ActionArgs) => Promise<void>,
): void {
  app.action(actionId, async (args) => {
    await args.ack();
    let ctx: WorkContext | undefined;
    try {
      ctx = workContext(deps, args);
      if (!(await requireConnection(ctx))) return;
      await fn(ctx, args);
    } catch (e) {
      if (ctx) await replyError(ctx, e, { action: 'handle that button' });
      else deps.logger.error(`A task button failed before it could reply: ${errMessage(e)}`);
    }
  });
}

export function register(app: App, deps: WorklinkDeps): void {
  onAction(app, deps, ACTION.taskComplete, async (ctx, args) => {
    const taskId = pressedValue(args);
    const problem = taskIdProblem(taskId);
    if (problem) return void (await ctx.reply(problem));
    try {
      const done = await completeTask(ctx, taskId);
      const data = await taskCardData(ctx, done.facts, done.project);
      const note = done.already ? 'Already done.' : `Marked complete by <@${ctx.userId}>.`;
      const blocks: KnownBlock[] = [
        ...taskCard(data),
        { type: 'context', elements: [{ type: 'mrkdwn', text: note }] },
      ];
      // Replace the card that was pressed, so it shows ✅ for everyone who sees it.
      if (args.respond) {
        await args.respond({ replace_original: true, text: taskCardText(data), blocks });
      } else {
        await ctx.reply({ text: completionSentence(done), blocks });
      }
    } catch (e) {
      if (e instanceof NoDoneStatusError) return void (await ctx.reply(e.message));
      await replyError(ctx, e, {
        action: 'mark the task complete',
        id: taskId,
        checkWith: `\`/work task ${taskId}\``,
      });
    }
  });

  onAction(app, deps, ACTION.taskEdit, async (ctx, args) => {
    const taskId = pressedValue(args);
    const problem = taskIdProblem(taskId);
    if (problem) return void (await ctx.reply(problem));
    await openTaskForm(ctx, { mode: 'edit', taskId });
  });

  onAction(app, deps, ACTION.taskComment, async (ctx, args) => {
    const taskId = pressedValue(args);
    const problem = taskIdProblem(taskId);
    if (problem) return void (await ctx.reply(problem));
    if (!ctx.triggerId) return;
    try {
      await ctx.slack.views.open({
        trigger_id: ctx.triggerId,
        view: taskCommentModal({
          taskId,
          channelId: ctx.channelId,
          responseUrl: ctx.responseUrl,
        }),
      });
    } catch (e) {
      await ctx.reply(
        `Could not open the comment form (${slackErrorCode(e)}). You can comment with \`/work comment ${taskId} <text>\`.`,
      );
    }
  });

  onAction(app, deps, ACTION.taskOpen, async (ctx, args) => {
    const taskId = pressedValue(args);
    const problem = taskIdProblem(taskId);
    if (problem) return void (await ctx.reply(problem));
    await runSafely(ctx, { action: 'load the task', id: taskId }, async () => {
      const data = await taskCardData(ctx, factsFromTask(await ctx.work.getTask(taskId)));
      await ctx.reply({ text: taskCardText(data), blocks: taskCard(data) });
    });
  });

  // Previous / Next: ACTION.taskListPage + ":prev" / ":next".
  onAction(app, deps, new RegExp(`^${ACTION.taskListPage}(:|$)`), async (ctx, args) => {
    const page = readListPageValue(pressedValue(args));
    if (!page)
      return void (await ctx.reply('That list button is out of date; run `/work list` again.'));
    await runSafely(ctx, { action: 'list the tasks', id: page.projectId }, async () => {
      const message = taskListMessage(await loadListPage(ctx, page));
      if (args.respond) await args.respond({ replace_original: true, ...message });
      else await ctx.reply(message);
    });
  });

  taskForm.register(app, deps);
}
