/**
 * Submitting the two comment modals: "Comment" on a task card, and "Add to task as comment"
 * on a message (task id asked for: a bad or unknown id is answered under the field). The
 * post runs inside the 3-second budget when it can, so service problems appear in the modal;
 * when slower, the modal closes and the result (or, on failure, the text) is sent after.
 */

import type {
  AllMiddlewareArgs,
  App,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { isWorkApiError } from '../../../workapi/client.js';
import { type Acting, actingFor } from '../../context/acting.js';
import type { WorklinkDeps } from '../../context/deps.js';
import { errMessage, errorText } from '../../context/error-replies.js';
import { budgetLeft, withinBudget } from '../../context/submit-budget.js';
import { type WorkContext, workContext } from '../../context/work-context.js';
import { esc } from '../../format/text.js';
import { taskIdProblem } from '../../parse/service-id.js';
import { VIEW } from '../../ui/block-ids.js';
import { NOT_CONNECTED } from '../../ui/error-text.js';
import { taskChanges } from '../changes.js';
import {
  COMMENT_BLOCK,
  type CommentMeta,
  readCommentMeta,
  readCommentValues,
} from './comment-modals.js';

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

type Outcome =
  | { kind: 'posted'; sentence: string }
  | { kind: 'invalid'; errors: Record<string, string> }
  | { kind: 'failed'; message: string };

export function register(app: App, deps: WorklinkDeps): void {
  app.view<ViewSubmitAction>(VIEW.taskComment, (args) => onSubmit(deps, args, false));
  app.view<ViewSubmitAction>(VIEW.commentFromMessage, (args) => onSubmit(deps, args, true));
}

async function onSubmit(deps: WorklinkDeps, args: ViewArgs, fromMessage: boolean): Promise<void> {
  const { ack } = args;
  const started = Date.now();
  const meta = readCommentMeta(args.view.private_metadata);
  const values = readCommentValues(args.view.state.values);
  const taskId = fromMessage ? values.taskId : (meta.taskId ?? '');
  const taskBlock = fromMessage ? COMMENT_BLOCK.taskId : COMMENT_BLOCK.text;

  const errors: Record<string, string> = {};
  const problem = taskIdProblem(taskId);
  if (problem) errors[taskBlock] = problem.replace(/, like `[^`]*`/, '');
  if (!values.text && !fromMessage) errors[COMMENT_BLOCK.text] = 'Write a comment to post.';
  if (Object.keys(errors).length) {
    await ack({ response_action: 'errors', errors });
    return;
  }
  const ctx = await workContext(deps, args, {
    channelId: meta.channelId,
    responseUrl: meta.responseUrl,
  });
  if (!ctx.connection) {
    await ack({ response_action: 'errors', errors: { [taskBlock]: NOT_CONNECTED } });
    return;
  }

  const by = await actingFor(ctx);
  if ('refused' in by) {
    await ack({ response_action: 'errors', errors: { [taskBlock]: by.refused } });
    return;
  }

  const outcome = post(ctx, by, meta, taskId, values.text, fromMessage, taskBlock);
  const inTime = await withinBudget(
    outcome,
    budgetLeft(started, deps.config.waits?.submitBudgetMs),
  );
  if (inTime.inTime && inTime.value.kind !== 'posted') {
    const result = inTime.value;
    await ack({
      response_action: 'errors',
      errors: result.kind === 'invalid' ? result.errors : { [taskBlock]: result.message },
    });
    return;
  }
  await ack();
  const result = inTime.inTime ? inTime.value : await outcome;
  try {
    if (result.kind === 'posted') {
      await ctx.reply(result.sentence);
      return;
    }
    const message = result.kind === 'failed' ? result.message : Object.values(result.errors)[0];
    await ctx.reply(
      `${message}\n\nYour comment, so nothing is lost:\n>${esc(values.text).replace(/\n/g, '\n>')}`,
    );
  } catch (e) {
    ctx.logger.error(`Could not report a comment to ${ctx.userId}: ${errMessage(e)}`);
  }
}

/** Checks the task (by reading it), then posts; never rejects. */
async function post(
  ctx: WorkContext,
  by: Acting,
  meta: CommentMeta,
  taskId: string,
  text: string,
  fromMessage: boolean,
  taskBlock: string,
): Promise<Outcome> {
  try {
    const permalink = fromMessage ? await messageLink(ctx, meta) : undefined;
    const body = [text, permalink].filter(Boolean).join('\n\n');
    if (!body) {
      return { kind: 'invalid', errors: { [COMMENT_BLOCK.text]: 'Write a comment to post.' } };
    }
    const author = fromMessage ? { userId: meta.messageUser, botName: meta.messageBot } : undefined;
    const { task } = await taskChanges(ctx).comment(by, taskId, body, { author });
    const name = esc(task?.taskName || taskId);
    return {
      kind: 'posted',
      sentence: fromMessage
        ? `Added the message as a comment on *${name}*.`
        : `Added your comment to *${name}*.`,
    };
  } catch (e) {
    if (isWorkApiError(e) && e.kind === 'not_found') {
      return {
        kind: 'invalid',
        errors: {
          [taskBlock]: `There is no task ${taskId.slice(0, 40)} in the connected workspace. Check the id (it is shown on task cards).`,
        },
      };
    }
    if (isWorkApiError(e) && e.kind === 'invalid') {
      const block = /^taskId/.test(e.message) ? taskBlock : COMMENT_BLOCK.text;
      return { kind: 'invalid', errors: { [block]: e.message } };
    }
    return {
      kind: 'failed',
      message: errorText(ctx, e, {
        action: 'post the comment',
        id: taskId,
        checkWith: `\`/work task ${taskId}\``,
      }),
    };
  }
}

/** The message's permalink; undefined when Slack does not give one (the text still posts). */
async function messageLink(ctx: WorkContext, meta: CommentMeta): Promise<string | undefined> {
  if (!meta.messageChannel || !meta.messageTs) return undefined;
  try {
    const res = await ctx.slack.chat.getPermalink({
      channel: meta.messageChannel,
      message_ts: meta.messageTs,
    });
    return res.permalink;
  } catch (e) {
    ctx.logger.debug(`chat.getPermalink failed: ${errMessage(e)}`);
    return undefined;
  }
}
