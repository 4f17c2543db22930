/**
 * A project pick-list button (several projects matched a command): runs the command again
 * with the chosen project's id, its answer taking the pick list's place.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { onAction, pressedValue } from '../context/on-action.js';
import { replacingReply } from '../context/replacing-reply.js';
import type { WorkContext } from '../context/work-context.js';
import { ACTION } from '../ui/block-ids.js';
import { readProjectPick } from './pick.js';

/** `dispatch` runs `/work <text>` (the router's). */
export function registerProjectPick(
  app: App,
  deps: WorklinkDeps,
  dispatch: (ctx: WorkContext, text: string) => Promise<void>,
): void {
  onAction(app, deps, ACTION.projectPick, async (ctx, args) => {
    const value = readProjectPick(pressedValue(args));
    if (!value) {
      await ctx.reply('That pick list is out of date; run the command again.');
      return;
    }
    const replacing = replacingReply(ctx, args.respond);
    const rest = value.command === 'list' ? ` ${value.rest}` : '';
    await dispatch(replacing, `${value.command} ${value.projectId}${rest}`);
  });
}
