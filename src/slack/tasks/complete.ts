/**
 * What marking a task complete or reopening it says (the change itself is the task-change
 * owner's `complete` / `reopen`, changes.ts): the sentences, and the answer to a failure.
 */
import { replyError } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { statusWords } from '../format/status-words.js';
import { esc } from '../format/text.js';
import { type Completion, NoDoneStatusError } from './changes.js';

/** "Reopened *X* (status To Do)." / "*X* is open already." (status-words.ts when unnamed) */
export function reopenSentence(c: Completion): string {
  const name = `*${esc(c.facts.name || c.facts.taskId)}*`;
  if (c.already) return `${name} is open already; nothing was changed.`;
  return `Reopened ${name} (status *${esc(statusWords(c.status?.Name, false))}*).`;
}

/** "Marked *X* complete (status Done)." / "*X* is already done." */
export function completionSentence(c: Completion): string {
  const name = `*${esc(c.facts.name || c.facts.taskId)}*`;
  if (c.already) return `${name} is already done; nothing was changed.`;
  return `Marked ${name} complete (status *${esc(statusWords(c.status?.Name, true))}*).`;
}

/** Answers a failed `complete` / `reopen`: the no-done-status sentence, else the service's problem. */
export async function replyCompletionError(
  ctx: WorkContext,
  err: unknown,
  taskId: string,
): Promise<void> {
  if (err instanceof NoDoneStatusError) {
    await ctx.reply(err.message);
    return;
  }
  await replyError(ctx, err, {
    action: 'mark the task complete',
    id: taskId,
    checkWith: `\`/work task ${taskId}\``,
  });
}
