/**
 * `/work list mine` and `/work list @someone` (read by the list command before its own
 * arguments), and the pages' Previous / Next buttons.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context/deps.js';
import { onAction, pressedValue } from '../../context/on-action.js';
import type { WorkContext } from '../../context/work-context.js';
import { ACTION } from '../../ui/block-ids.js';
import { fitMessage } from '../../ui/limits.js';
import { loadMine } from './load.js';
import { mineMessage, readMinePageValue } from './my-tasks-view.js';

/** Whose tasks `/work list <words>` asks for, if it asks for a person's. */
export function personOfList(words: readonly string[], viewer: string): string | undefined {
  if (words.length !== 1) return undefined;
  const word = words[0]!;
  if (/^(mine|me|my)$/i.test(word)) return viewer;
  return /^<@([UW][A-Z0-9_]+)(\|[^>]*)?>$/.exec(word)?.[1];
}

export async function replyMine(ctx: WorkContext, slackUserId: string, page = 0): Promise<void> {
  const data = await loadMine(ctx, slackUserId);
  if ('problem' in data) {
    await ctx.reply(data.problem);
    return;
  }
  await ctx.reply(mineMessage(data, page));
}

export function register(app: App, deps: WorklinkDeps): void {
  onAction(app, deps, new RegExp(`^${ACTION.taskMinePage}:`), async (ctx, args) => {
    const value = readMinePageValue(pressedValue(args));
    if (!value)
      return void (await ctx.reply(
        'That list button is out of date; run `/work list mine` again.',
      ));
    const data = await loadMine(ctx, value.user);
    const message = 'problem' in data ? { text: data.problem } : mineMessage(data, value.page);
    // ":open" (a grouped DM's "See all in My tasks") keeps its message; paging replaces the page.
    const keep = 'action_id' in args.action && args.action.action_id.endsWith(':open');
    if (args.respond && !keep)
      await args.respond(fitMessage({ replace_original: true, ...message }));
    else await ctx.reply(message);
  });
}
