/** A pick-list button (several tasks matched a command): finishes the command with that task. */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { onAction, pressedValue } from '../context/on-action.js';
import type { ReplyMessage } from '../context/response-url.js';
import type { WorkContext } from '../context/work-context.js';
import { ACTION } from '../ui/block-ids.js';
import { fitMessage } from '../ui/limits.js';
import { readPickValue } from './pick-list.js';
import { finishPicked } from './task-verbs.js';

export function register(app: App, deps: WorklinkDeps): void {
  onAction(app, deps, ACTION.taskPick, async (ctx, args) => {
    const value = readPickValue(pressedValue(args));
    if (!value) {
      await ctx.reply('That pick list is out of date; run the command again.');
      return;
    }
    // The answer takes the pick list's place (a form opened by Edit leaves it as it is).
    const respond = args.respond;
    const replacing: WorkContext = respond
      ? Object.assign(Object.create(ctx) as WorkContext, {
          reply: async (message: ReplyMessage | string) => {
            const m = fitMessage(typeof message === 'string' ? { text: message } : message);
            await respond({ ...m, response_type: 'ephemeral', replace_original: true });
          },
        })
      : ctx;
    await finishPicked(replacing, value);
  });
}
