/**
 * Changing a channel's project changes where everyone's `/work add` goes, so it is announced
 * in the channel for all to see. When Worklink cannot post there (not a member), the person
 * who made the change is told instead, as before.
 */
import { errMessage } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { inDirectMessage } from '../shared/project-here.js';

/** Posts `text` in the context's channel; answers the author with `fallback` if it cannot. */
export async function announceInChannel(
  ctx: WorkContext,
  text: string,
  fallback: string,
): Promise<void> {
  if (ctx.channelId && !inDirectMessage(ctx)) {
    try {
      await ctx.slack.chat.postMessage({ channel: ctx.channelId, text });
      return;
    } catch (e) {
      ctx.logger.warn(`Could not announce in ${ctx.channelId}: ${errMessage(e)}`);
    }
  }
  await ctx.reply(fallback);
}
