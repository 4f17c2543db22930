/**
 * "Connect your account" submitted: like the workspace's connect modal (connection/submit.ts),
 * the key is checked before ack within the submission budget, so a refusal shows under the
 * field; a slower service closes the modal and the outcome arrives as a message.
 */
import type { App, ViewSubmitAction } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { errMessage, orDebug } from '../context/error-replies.js';
import { budgetLeft, withinBudget } from '../context/submit-budget.js';
import { type WorkContext, workContext } from '../context/work-context.js';
import { decodeSlackEntities } from '../format/text.js';
import { noticeModal } from '../ui/notice-modal.js';
import {
  OWN_KEY_ACTION,
  OWN_KEY_BLOCK,
  OWN_KEY_CALLBACK_ID,
  readOwnKeyMeta,
} from './connect-me-modal.js';
import { checkOwnKey, saveOwnKey } from './own-key.js';

export function register(app: App, deps: WorklinkDeps, onSaved: OnSaved): void {
  app.view<ViewSubmitAction>(OWN_KEY_CALLBACK_ID, async (args) => {
    const { ack, view } = args;
    const started = Date.now();
    const apiKey = view.state.values[OWN_KEY_BLOCK]?.[OWN_KEY_ACTION]?.value?.trim() ?? '';
    const ctx = await workContext(deps, args, readOwnKeyMeta(view.private_metadata));
    const check = checkOwnKey(deps, ctx, apiKey);
    const answer = await withinBudget(
      check,
      budgetLeft(started, deps.config.waits?.submitBudgetMs),
    );
    if (!answer.inTime) {
      await ack();
      try {
        const result = await check;
        const text = result.ok
          ? await saveOwnKey(ctx, apiKey, result.verification)
          : `${result.message} Nothing was saved.`;
        await ctx.reply(text);
        if (result.ok) await onSaved(ctx);
      } catch (e) {
        deps.logger.error(`Finishing a slow own-key connect failed: ${errMessage(e)}`);
        await ctx
          .reply('Sorry, connecting your account failed and nothing was saved. Please try again.')
          .catch(orDebug(deps.logger, 'The reply about a failed own-key connect', undefined));
      }
      return;
    }
    const result = answer.value;
    if (!result.ok) {
      await ack({
        response_action: 'errors',
        errors: { [OWN_KEY_BLOCK]: decodeSlackEntities(`${result.message} Nothing was saved.`) },
      });
      return;
    }
    const text = await saveOwnKey(ctx, apiKey, result.verification);
    await ack({ response_action: 'update', view: noticeModal('Account connected', text) });
    await onSaved(ctx).catch(orDebug(deps.logger, 'Refreshing Home after connect me', undefined));
  });
}

/** What follows a saved key (App Home is published again). */
export type OnSaved = (ctx: WorkContext) => Promise<void>;
