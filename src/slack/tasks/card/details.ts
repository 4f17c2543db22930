/**
 * "Details" on any task surface: the task's current card, read now (never a stale copy),
 * shown where the person is — in a modal when they pressed it in App Home or a DM (where an
 * ephemeral reply would land out of sight in the Messages tab), else as a reply in place.
 * Rows offer Details in their one menu (row-menu.ts).
 */
import type { KnownBlock } from '@slack/types';
import { runSafely } from '../../context/error-replies.js';
import type { ActionArgs } from '../../context/on-action.js';
import type { WorkContext } from '../../context/work-context.js';
import { fitView } from '../../ui/limits.js';
import { factsFromTask } from '../facts.js';
import { taskCardData } from './load.js';
import { taskCard, taskCardText } from './task-card.js';

/** Whether the button was pressed inside a modal (then views.push, not views.open). */
export function inModal(args: ActionArgs): boolean {
  return pressedIn(args) === 'modal';
}

function pressedIn(args: ActionArgs): 'home' | 'modal' | 'message' {
  const body = args.body as { container?: { type?: string }; view?: { type?: string } };
  if (body.container?.type !== 'view') return 'message';
  return body.view?.type === 'home' ? 'home' : 'modal';
}

export async function showDetails(
  ctx: WorkContext,
  taskId: string,
  args: ActionArgs,
): Promise<void> {
  await runSafely(ctx, { action: 'load the task', id: taskId }, async () => {
    const data = await taskCardData(ctx, factsFromTask(await ctx.work.getTask(taskId)));
    const blocks: KnownBlock[] = taskCard(data);
    const where = pressedIn(args);
    const inDm = ctx.channelId?.startsWith('D') ?? false;
    if ((where !== 'message' || inDm) && ctx.triggerId) {
      const view = fitView({
        type: 'modal' as const,
        title: { type: 'plain_text' as const, text: 'Task details' },
        close: { type: 'plain_text' as const, text: 'Close' },
        blocks,
      });
      try {
        if (where === 'modal') await ctx.slack.views.push({ trigger_id: ctx.triggerId, view });
        else await ctx.slack.views.open({ trigger_id: ctx.triggerId, view });
        return;
      } catch (e) {
        ctx.logger.debug(`Details modal for ${taskId}: ${String(e)}`);
      }
    }
    await ctx.reply({ text: taskCardText(data), blocks });
  });
}
