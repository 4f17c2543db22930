/**
 * Task buttons, wherever the card or list is (channel message, ephemeral, DM — the
 * notification DMs use the same ids with value = taskId): Comment, Edit, Mark complete,
 * Open, list paging; App Home's "New task" (the form's own menus: form/actions.ts).
 */
import type { App } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import { requireActing } from '../context/acting.js';
import type { WorklinkDeps } from '../context/deps.js';
import { runSafely } from '../context/error-replies.js';
import { type ActionArgs, onAction, pressedValue } from '../context/on-action.js';
import type { WorkContext } from '../context/work-context.js';
import { taskIdProblem } from '../parse/service-id.js';
import { ACTION } from '../ui/block-ids.js';
import { context } from '../ui/blocks.js';
import { slackErrorCode } from '../ui/error-text.js';
import { fitMessage } from '../ui/limits.js';
import { inModal, rowMenuTaskId, showDetails } from './card/details.js';
import { taskCardData } from './card/load.js';
import { taskCard, taskCardText } from './card/task-card.js';
import { type Completion, taskChanges } from './changes.js';
import { taskCommentModal } from './comment/comment-modals.js';
import { completionSentence, reopenSentence, replyCompletionError } from './complete.js';
import { openTaskForm } from './form/open.js';
import { loadListPage } from './list/load.js';
import { readListPageValue, taskListMessage } from './list/task-list-page.js';
import { numbered } from './pick-list.js';

export function register(app: App, deps: WorklinkDeps): void {
  /** A button whose value is a task id: an unusable one is answered, `fn` gets a usable one. */
  const onTaskButton = (
    actionId: string,
    fn: (ctx: WorkContext, taskId: string, args: ActionArgs) => Promise<void>,
  ) =>
    onAction(app, deps, actionId, async (ctx, args) => {
      const taskId = pressedValue(args);
      const problem = taskIdProblem(taskId);
      if (problem) return void (await ctx.reply(problem));
      await fn(ctx, taskId, args);
    });

  // Mark complete and Reopen: a live message (card, DM) is updated by the change itself, like
  // every other message about the task; any other card pressed is replaced with the new state.
  const onStatusButton = (
    actionId: string,
    change: 'complete' | 'reopen',
    sentence: (c: Completion) => string,
    note: (ctx: WorkContext, c: Completion) => string,
  ) =>
    onTaskButton(actionId, async (ctx, taskId, args) => {
      const by = await requireActing(ctx);
      if (!by) return;
      try {
        const result = await taskChanges(ctx)[change](by, taskId);
        if (await isLiveMessage(ctx, taskId, args)) return;
        const data = await taskCardData(ctx, result.facts, result.project);
        const blocks: KnownBlock[] = [...taskCard(data), context(note(ctx, result))];
        if (args.respond) {
          await args.respond(
            fitMessage({ replace_original: true, text: taskCardText(data), blocks }),
          );
        } else {
          await ctx.reply({ text: sentence(result), blocks });
        }
      } catch (e) {
        await replyCompletionError(ctx, e, taskId);
      }
    });
  onStatusButton(ACTION.taskComplete, 'complete', completionSentence, (ctx, c) =>
    c.already ? 'Already done.' : `Marked complete by <@${ctx.userId}>.`,
  );
  onStatusButton(ACTION.taskReopen, 'reopen', reopenSentence, (ctx, c) =>
    c.already ? 'Already open.' : `Reopened by <@${ctx.userId}>.`,
  );

  onTaskButton(ACTION.taskEdit, async (ctx, taskId) => {
    await openTaskForm(ctx, { mode: 'edit', taskId });
  });

  onTaskButton(ACTION.taskComment, async (ctx, taskId, args) => {
    if (!ctx.triggerId) return;
    try {
      // The form names its task (from the index: SQLite, well inside the trigger's 3 s).
      const known = await ctx.store.taskIndex.get(ctx.teamId, taskId);
      // From a modal (Details, card/details.ts) the form goes on top of it, as Slack requires.
      const open = inModal(args) ? ctx.slack.views.push : ctx.slack.views.open;
      await open({
        trigger_id: ctx.triggerId,
        view: taskCommentModal({
          taskId,
          taskName: known ? numbered(known.name || 'Untitled task', known.number) : undefined,
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

  onTaskButton(ACTION.taskOpen, (ctx, taskId, args) => showDetails(ctx, taskId, args));
  onAction(app, deps, ACTION.taskRowMenu, async (ctx, args) => {
    const taskId = rowMenuTaskId(args);
    if (taskId && !taskIdProblem(taskId)) await showDetails(ctx, taskId, args);
  });

  // Previous / Next: ACTION.taskListPage + ":prev" / ":next".
  onAction(app, deps, new RegExp(`^${ACTION.taskListPage}(:|$)`), async (ctx, args) => {
    const page = readListPageValue(pressedValue(args));
    if (!page)
      return void (await ctx.reply('That list button is out of date; run `/work list` again.'));
    await runSafely(ctx, { action: 'list the tasks', id: page.projectId }, async () => {
      const message = taskListMessage(await loadListPage(ctx, page));
      if (args.respond) await args.respond(fitMessage({ replace_original: true, ...message }));
      else await ctx.reply(message);
    });
  });

  // App Home's button carries no value.
  onAction(app, deps, ACTION.homeNewTask, (ctx) => openTaskForm(ctx, { mode: 'create' }));
}

/** Whether the pressed button sits on a message Worklink keeps current for this task. */
async function isLiveMessage(ctx: WorkContext, taskId: string, args: ActionArgs): Promise<boolean> {
  const body = args.body as {
    container?: { channel_id?: string; message_ts?: string };
    message?: { ts?: string };
    channel?: { id?: string };
  };
  const channel = body.container?.channel_id ?? body.channel?.id;
  const ts = body.message?.ts ?? body.container?.message_ts;
  if (!channel || !ts) return false;
  return (await ctx.store.taskMessages.forTask(ctx.teamId, taskId)).some(
    (m) => m.channelId === channel && m.ts === ts,
  );
}
