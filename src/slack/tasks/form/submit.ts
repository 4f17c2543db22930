/**
 * Submitting the create/edit task form. Input problems are answered in the HTTP response
 * (`response_action: 'errors'`), so — like the connect modal — the save runs BEFORE ack,
 * within a budget well inside Slack's 3 s: a service 400 then appears under its field,
 * verbatim. When the service is slower, the modal turns into "Creating…", the save
 * finishes in the background, and the result arrives as a reply; a failure then also DMs
 * the person what they entered, so nothing typed is lost. A create the service did not
 * confirm goes the slow way too, and Worklink finds out what became of it (follow-up.ts).
 */

import type {
  AllMiddlewareArgs,
  App,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { type Acting, actingFor } from '../../context/acting.js';
import type { WorklinkDeps } from '../../context/deps.js';
import { errMessage, orDebug } from '../../context/error-replies.js';
import { budgetLeft, withinBudget } from '../../context/submit-budget.js';
import { type WorkContext, workContext } from '../../context/work-context.js';
import { pastDueNote } from '../../format/date-text.js';
import { parseDueDate } from '../../parse/due-date.js';
import { VIEW } from '../../ui/block-ids.js';
import { section } from '../../ui/blocks.js';
import { NOT_CONNECTED } from '../../ui/error-text.js';
import { noticeModal } from '../../ui/notice-modal.js';
import { postLiveCard } from '../card/live-post.js';
import { taskCardData } from '../card/load.js';
import { taskChanges } from '../changes.js';
import { findUnconfirmedCreate } from './follow-up.js';
import { checkTaskForm, describeEnteredValues, errorBlock, readTaskFormValues } from './read.js';
import { type SaveOutcome, saveTaskForm } from './save.js';
import type { TaskFormMode, TaskFormValues } from './task-form-fields.js';
import { readTaskFormMeta, type TaskFormMeta } from './task-form-meta.js';

/** Time allowed for files.info, the save and the announcement before the modal is answered. */

export function register(app: App, deps: WorklinkDeps): void {
  app.view<ViewSubmitAction>(VIEW.taskCreate, (args) => onSubmit(deps, args, 'create'));
  app.view<ViewSubmitAction>(VIEW.taskEdit, (args) => onSubmit(deps, args, 'edit'));
}

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

async function onSubmit(deps: WorklinkDeps, args: ViewArgs, mode: TaskFormMode): Promise<void> {
  const { view } = args;
  const { ack } = args;
  const started = Date.now();
  const meta = readTaskFormMeta(view.private_metadata, mode);
  const values = readTaskFormValues(view.state.values);
  const check = checkTaskForm(values, meta);
  if (!check.ok) {
    await ack({ response_action: 'errors', errors: check.errors });
    return;
  }
  const ctx = await workContext(deps, args, {
    channelId: meta.channelId,
    responseUrl: meta.responseUrl,
  });
  if (!ctx.connection) {
    await ack({ response_action: 'errors', errors: { [errorBlock('name', meta)]: NOT_CONNECTED } });
    return;
  }
  const by = await actingFor(ctx);
  if ('refused' in by) {
    await ack({ response_action: 'errors', errors: { [errorBlock('name', meta)]: by.refused } });
    return;
  }
  const title = mode === 'edit' ? 'Edit task' : 'New task';
  if (mode === 'edit' && check.changed.length === 0) {
    await ack({
      response_action: 'update',
      view: noticeModal(title, 'Nothing was changed, so nothing was saved.'),
    });
    return;
  }

  const outcome = saveTaskForm(ctx, by, meta, check);
  const inTime = await withinBudget(
    outcome,
    budgetLeft(started, deps.config.waits?.submitBudgetMs),
  );
  // A create the service did not confirm goes the slow way: one sentence now, the answer later.
  const unconfirmed = inTime.inTime && inTime.value.kind === 'failed' && inTime.value.unconfirmed;
  if (inTime.inTime && !unconfirmed) {
    const result = inTime.value;
    if (result.kind === 'invalid') {
      await ack({ response_action: 'errors', errors: result.errors });
      return;
    }
    if (result.kind === 'failed') {
      // Still inside the modal: the message under the name keeps everything typed.
      await ack({
        response_action: 'errors',
        errors: { [errorBlock('name', meta)]: result.message },
      });
      return;
    }
    // Saved: the modal closes; the confirmation is the live card (or the sentence).
    await ack();
    await report(ctx, by, result, meta, check.body.dueDate);
    return;
  }

  // Too slow for the modal: say so in it, and report the outcome afterwards.
  const doing = mode === 'edit' ? 'Saving the task…' : 'Creating the task…';
  await ack({
    response_action: 'update',
    view: noticeModal(
      title,
      `:hourglass_flowing_sand: ${doing} The service is slow; you can close this, the result will be sent to you.`,
    ),
  });
  let result = await outcome;
  if (result.kind === 'failed' && result.unconfirmed) {
    result = await findUnconfirmedCreate(ctx, by, result.unconfirmed, {
      delayMs: deps.config.waits?.unconfirmedLookMs,
    });
  }
  if (result.kind === 'saved') {
    await ctx.slack.views
      .update({ view_id: view.id, view: noticeModal(title, result.sentence) })
      .catch(orDebug(ctx.logger, 'Updating the closed task form', undefined));
    await report(ctx, by, result, meta, check.body.dueDate);
    return;
  }
  await ctx.slack.views
    .update({
      view_id: view.id,
      view: noticeModal(
        title,
        `${headline(result)}${result.message}\n\nWhat you entered was sent to you in a direct message.`,
      ),
    })
    .catch(orDebug(ctx.logger, 'Updating the closed task form', undefined));
  await dmEnteredValues(ctx, mode, result, values);
}

/** "Your task was not created. " when the outcome says so apart from its message. */
function headline(result: SaveOutcome): string {
  return result.kind === 'failed' && result.headline ? `${result.headline} ` : '';
}

/**
 * The confirmation, only to its author: a new task's live card in their DM with Worklink
 * (remembered, so it stays current); after an edit, one sentence, while every message about
 * the task is updated in place.
 */
async function report(
  ctx: WorkContext,
  by: Acting,
  result: Extract<SaveOutcome, { kind: 'saved' }>,
  meta: TaskFormMeta,
  dueSent: string | undefined,
) {
  try {
    const facts = result.facts;
    // A due date before today is kept, with the note quick add gives (commands.ts).
    const past = dueSent && (await isPast(ctx, dueSent)) ? pastDueNote(dueSent) : '';
    // An edit's live messages were refreshed by the save itself.
    if (!facts || !result.created) {
      await ctx.reply([result.sentence, past].filter(Boolean).join(' '));
      return;
    }
    const data = await taskCardData(ctx, facts);
    const unposted = await postLiveCard(ctx, data, 'author');
    taskChanges(ctx).shown(by, facts, meta.source);
    if (unposted) {
      await ctx.reply({
        text: result.sentence,
        blocks: [section(result.sentence), ...unposted.blocks],
      });
    } else if (result.notifyProblem || past) {
      await ctx.reply([result.notifyProblem, past].filter(Boolean).join(' '));
    }
  } catch (e) {
    ctx.logger.warn(`Could not report the saved task: ${errMessage(e)}`);
    await ctx.reply(result.sentence).catch(orDebug(ctx.logger, 'The plain report', undefined));
  }
}

/** After the modal has gone, a failure must not lose what was typed: DM it back. */
async function dmEnteredValues(
  ctx: WorkContext,
  mode: TaskFormMode,
  failure: Exclude<SaveOutcome, { kind: 'saved' }>,
  values: TaskFormValues,
): Promise<void> {
  const head =
    (failure.kind === 'failed' ? failure.headline : undefined) ??
    (mode === 'edit' ? 'Your changes to the task were not saved.' : 'Your task was not created.');
  const entered = describeEnteredValues(values);
  const text = `${head} ${failure.message}\n\nHere is what you entered, so nothing is lost:\n${entered}`;
  try {
    await ctx.slack.chat.postMessage({ channel: ctx.userId, text: text.slice(0, 39_000) });
  } catch (e) {
    ctx.logger.error(`Could not DM ${ctx.userId} their unsaved task: ${errMessage(e)}`);
  }
}

/** Whether a yyyy-MM-dd is before today in the person's time zone. */
async function isPast(ctx: WorkContext, date: string): Promise<boolean> {
  const now = new Date(ctx.deps.clock?.() ?? Date.now());
  const read = parseDueDate(date, await ctx.userTimeZone(), now);
  return read.ok && read.past === true;
}
