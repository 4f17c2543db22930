/**
 * The daily digest: a person's overdue tasks and those due today and tomorrow, each with
 * Mark complete and Open. Pure; the same message is DMed at 09:00 and shown by `/work digest`.
 */
import type { KnownBlock } from '@slack/types';
import { formatDueDate } from '../../format/date-text.js';
import { cut } from '../../format/text.js';
import { openButtons, taskButton } from '../../tasks/card/view.js';
import { addDays } from '../../tasks/mine/due-groups.js';
import type { MineRow } from '../../tasks/mine/load.js';
import { mineRowText } from '../../tasks/mine/view.js';
import { ACTION } from '../../ui/block-ids.js';

/** Tasks a digest shows at most (two blocks each; Slack allows 50 in a message). */
const MAX_TASKS = 20;

export type DigestGroup = 'overdue' | 'today' | 'tomorrow';

const TITLE: Record<DigestGroup, string> = {
  overdue: ':warning: Overdue',
  today: 'Due today',
  tomorrow: 'Due tomorrow',
};

/** The rows a digest is about, in order; empty when there is nothing to say. */
export function digestRows(
  rows: readonly MineRow[],
  today: string,
): (MineRow & { due: DigestGroup })[] {
  const tomorrow = addDays(today, 1);
  const out: (MineRow & { due: DigestGroup })[] = [];
  for (const r of rows) {
    if (r.group === 'overdue') out.push({ ...r, due: 'overdue' });
    else if (r.group === 'today') out.push({ ...r, due: 'today' });
    else if (r.dueDate === tomorrow) out.push({ ...r, due: 'tomorrow' });
  }
  const order: DigestGroup[] = ['overdue', 'today', 'tomorrow'];
  return out.sort((a, b) => order.indexOf(a.due) - order.indexOf(b.due));
}

export function digestMessage(
  rows: readonly (MineRow & { due: DigestGroup })[],
  today: string,
): { text: string; blocks: KnownBlock[] } {
  const day = formatDueDate(today);
  if (rows.length === 0) {
    const text = `Nothing overdue, due today or due tomorrow (${day}).`;
    return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
  }
  const count = (g: DigestGroup) => rows.filter((r) => r.due === g).length;
  const parts = [
    count('overdue') && `${count('overdue')} overdue`,
    count('today') && `${count('today')} due today`,
    count('tomorrow') && `${count('tomorrow')} due tomorrow`,
  ].filter(Boolean);
  const text = `Your tasks for ${day}: ${parts.join(', ')}.`;
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${text}*` } }];
  let group: DigestGroup | undefined;
  rows.slice(0, MAX_TASKS).forEach((r, i) => {
    if (r.due !== group) {
      group = r.due;
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `*${TITLE[r.due]}*` }] });
    }
    blocks.push(
      { type: 'section', text: { type: 'mrkdwn', text: cut(mineRowText(r), 3000) } },
      {
        type: 'actions',
        block_id: `digest_task_${i}`,
        elements: [
          taskButton(r.taskId, 'Mark complete', ACTION.taskComplete, 'primary'),
          taskButton(r.taskId, 'Details', ACTION.taskOpen),
          ...openButtons(r),
        ],
      },
    );
  });
  if (rows.length > MAX_TASKS) {
    blocks.push({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: `…and ${rows.length - MAX_TASKS} more: \`/work list mine\`.` },
      ],
    });
  }
  return { text, blocks };
}
