/** A pick-list button (several tasks matched a command): finishes the command with that task. */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { onAction, pressedValue } from '../context/on-action.js';
import { replacingReply } from '../context/replacing-reply.js';
import { ACTION } from '../ui/block-ids.js';
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
    const replacing = replacingReply(ctx, args.respond);
    await finishPicked(replacing, value);
  });
}
