/**
 * What pressing a task control does, whichever control it was — a card's or DM's button or
 * a row's menu (card/row-menu.ts): Mark complete / Reopen, and the comment form.
 */
import type { KnownBlock } from '@slack/types';
import { requireActing } from '../context/acting.js';
import type { ActionArgs } from '../context/on-action.js';
import type { WorkContext } from '../context/work-context.js';
import { context } from '../ui/blocks.js';
import { slackErrorCode } from '../ui/error-text.js';
import { fitMessage } from '../ui/limits.js';
import { inModal } from './card/details.js';
import { taskCardData } from './card/load.js';
import { taskCard, taskCardText } from './card/task-card.js';
import { type Completion, taskChanges } from './changes.js';
import { taskCommentModal } from './comment/comment-modals.js';
import { completionSentence, reopenSentence, replyCompletionError } from './complete.js';
import { numbered } from './pick-list.js';

const SAY = {
  complete: {
    sentence: completionSentence,
    note: (ctx: WorkContext, c: Completion) =>
      c.already ? 'Already done.' : `Marked complete by <@${ctx.userId}>.`,
  },
  reopen: {
    sentence: reopenSentence,
    note: (ctx: WorkContext, c: Completion) =>
      c.already ? 'Already open.' : `Reopened by <@${ctx.userId}>.`,
  },
};

/**
 * Mark complete or Reopen. A live message (card, DM) is updated by the change itself, like
 * every other message about the task; any other card pressed is replaced with the new state.
 */
export async function statusPressed(
  ctx: WorkContext,
  taskId: string,
  args: ActionArgs,
  change: 'complete' | 'reopen',
): Promise<void> {
  const by = await requireActing(ctx);
  if (!by) return;
  try {
    const result = await taskChanges(ctx)[change](by, taskId);
    if (await isLiveMessage(ctx, taskId, args)) return;
    const data = await taskCardData(ctx, result.facts, result.project);
    const blocks: KnownBlock[] = [...taskCard(data), context(SAY[change].note(ctx, result))];
    if (args.respond) {
      await args.respond(fitMessage({ replace_original: true, text: taskCardText(data), blocks }));
    } else {
      await ctx.reply({ text: SAY[change].sentence(result), blocks });
    }
  } catch (e) {
    await replyCompletionError(ctx, e, taskId);
  }
}

/** The comment form, naming its task (from the index: SQLite, well inside the trigger's 3 s). */
export async function openCommentForm(
  ctx: WorkContext,
  taskId: string,
  args: ActionArgs,
): Promise<void> {
  if (!ctx.triggerId) return;
  try {
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
}

/** Whether the pressed control sits on a message Worklink keeps current for this task. */
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
