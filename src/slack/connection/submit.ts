/**
 * The connect modal's submission. A modal's input problems must be answered in the HTTP
 * response (`response_action: 'errors'`), so this listener — unlike the others — checks the
 * key BEFORE ack, within a budget well inside Slack's 3 s. When the service is slower than
 * that, the modal closes and the check finishes in the background; the result (connected,
 * or why not) arrives as an ephemeral reply or DM, so the pasted key is never lost.
 */

import type { App, ViewSubmitAction } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { errMessage, orDebug } from '../context/error-replies.js';
import { canManageConnection } from '../context/permissions.js';
import { budgetLeft, withinBudget } from '../context/submit-budget.js';
import { workContext } from '../context/work-context.js';
import { decodeSlackEntities } from '../format/text.js';
import { noticeModal } from '../ui/notice-modal.js';
import { checkKey, keyProblem, saveConnection } from './commands.js';
import {
  API_KEY_ACTION,
  API_KEY_BLOCK,
  CONNECT_CALLBACK_ID,
  readConnectMeta,
} from './connect-modal.js';

export function register(app: App, deps: WorklinkDeps): void {
  app.view<ViewSubmitAction>(CONNECT_CALLBACK_ID, async (args) => {
    const { ack, view } = args;
    const started = Date.now();
    const apiKey = view.state.values[API_KEY_BLOCK]?.[API_KEY_ACTION]?.value?.trim() ?? '';
    const problem = keyProblem(apiKey);
    if (problem) {
      await ack({ response_action: 'errors', errors: { [API_KEY_BLOCK]: problem } });
      return;
    }
    const meta = readConnectMeta(view.private_metadata);
    const ctx = await workContext(deps, args, meta);
    const permission = canManageConnection(ctx);
    const check = checkKey(deps, apiKey);
    const both = Promise.all([permission, check]);
    const answer = await withinBudget(both, budgetLeft(started, deps.config.waits?.submitBudgetMs));

    if (!answer.inTime) {
      // Too slow for the modal: close it and report the outcome where the command was typed.
      await ack();
      try {
        const [allowed, result] = await both;
        if (!allowed.allowed) return void (await ctx.reply(allowed.message));
        if (!result.ok) {
          await ctx.reply(
            `${result.message} Nothing was saved; run \`/work connect\` to try again.`,
          );
          return;
        }
        await ctx.reply(await saveConnection(ctx, apiKey, result.verification));
      } catch (e) {
        deps.logger.error(`Finishing a slow connect failed: ${errMessage(e)}`);
        await ctx
          .reply('Sorry, connecting failed unexpectedly and nothing was saved. Please try again.')
          .catch(orDebug(deps.logger, 'The reply about a failed connect', undefined));
      }
      return;
    }

    const [allowed, result] = answer.value;
    if (!allowed.allowed) {
      await ack({ response_action: 'errors', errors: { [API_KEY_BLOCK]: allowed.message } });
      return;
    }
    if (!result.ok) {
      // Input errors are plain text: the message's escaping is undone there.
      await ack({
        response_action: 'errors',
        errors: { [API_KEY_BLOCK]: decodeSlackEntities(result.message) },
      });
      return;
    }
    const text = await saveConnection(ctx, apiKey, result.verification);
    await ack({ response_action: 'update', view: noticeModal('Worklink connected', text) });
    // Also leave a trace in the channel, so the admin sees it after closing the modal.
    await ctx.reply(text).catch((e) => deps.logger.warn(`Connect reply failed: ${errMessage(e)}`));
  });
}
