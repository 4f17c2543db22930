/**
 * Modals that need data: Slack's trigger_id expires 3 s after the click or command, so a
 * "Loading…" view opens at once and is replaced by the real view when its data is in — or
 * by the one sentence saying why it cannot be shown (docs/design.md, Rules that shape every
 * listener). Used by the task form and the project forms.
 */
import type { ModalView } from '@slack/types';
import { type ErrorWording, slackErrorCode } from '../ui/error-text.js';
import { fitView } from '../ui/limits.js';
import { loadingModal, noticeModal } from '../ui/notice-modal.js';
import { errMessage, errorText } from './error-replies.js';
import type { WorkContext } from './work-context.js';

export interface LoadingModal {
  title: string;
  /** Said when the payload carried no trigger_id. */
  noTrigger: string;
  /** Said when views.open fails, with Slack's error code. */
  openFailed: (code: string) => string;
  /** The view to show; what it throws is shown in the modal in the words of `wording`. */
  build: () => Promise<ModalView>;
  wording: ErrorWording;
}

/** Never throws; every failure is said in the modal, or by a reply when the modal is gone. */
export async function openWithLoading(ctx: WorkContext, modal: LoadingModal): Promise<void> {
  if (!ctx.triggerId) {
    await ctx.reply(modal.noTrigger);
    return;
  }
  let viewId: string | undefined;
  try {
    const opened = await ctx.slack.views.open({
      trigger_id: ctx.triggerId,
      view: loadingModal(modal.title),
    });
    viewId = opened.view?.id;
  } catch (e) {
    await ctx.reply(modal.openFailed(slackErrorCode(e)));
    return;
  }
  if (!viewId) return;
  try {
    await ctx.slack.views.update({ view_id: viewId, view: fitView(await modal.build()) });
  } catch (e) {
    const text = errorText(ctx, e, modal.wording);
    try {
      await ctx.slack.views.update({ view_id: viewId, view: noticeModal(modal.title, text) });
    } catch (updateErr) {
      // Most often the person closed the loading view already: say it by message instead.
      ctx.logger.warn(`Could not show "${modal.title}" (view ${viewId}): ${errMessage(updateErr)}`);
      await ctx
        .reply(text)
        .catch((replyErr: unknown) =>
          ctx.logger.debug(`The reply about "${modal.title}" failed too: ${errMessage(replyErr)}`),
        );
    }
  }
}
