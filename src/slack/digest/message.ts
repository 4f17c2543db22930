/**
 * The daily digest: a person's overdue tasks and those due today and tomorrow, each row with
 * one menu (Mark complete, Details, Open in …). Pure; the same message is DMed at 09:00 and shown by `/work digest`.
 */
import type { KnownBlock } from '@slack/types';
import { formatDueDate } from '../format/date-text.js';
import { cut } from '../format/text.js';
import { taskRowMenu } from '../tasks/card/row-menu.js';
import { addDays } from '../tasks/mine/due-groups.js';
import type { MineRow } from '../tasks/mine/load.js';
import { mineRowText } from '../tasks/mine/my-tasks-view.js';

/** Rows a section shows at most; its count and "…and N more" say the rest. */
const PER_SECTION = 5;

export type DigestGroup = 'overdue' | 'today' | 'tomorrow' | 'later';

const ORDER: readonly DigestGroup[] = ['overdue', 'today', 'tomorrow', 'later'];

const TITLE: Record<DigestGroup, string> = {
  overdue: ':warning: Overdue',
  today: 'Due today',
  tomorrow: 'Due tomorrow',
  later: 'Later this week',
};

/**
 * The rows a digest is about, in order: overdue, today, tomorrow, then later this week.
 * "Later" alone is no reason to send one (see `hasNews`).
 */
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
    else if (r.group === 'week') out.push({ ...r, due: 'later' });
  }
  return out.sort((a, b) => ORDER.indexOf(a.due) - ORDER.indexOf(b.due));
}

/** Whether a digest has something to say: a task overdue, due today or tomorrow. */
export function hasNews(rows: readonly { due: DigestGroup }[]): boolean {
  return rows.some((r) => r.due !== 'later');
}

/**
 * Each section with its count and its first rows, so many overdue tasks never hide what is
 * due today ("Overdue (14)" shows 5, then "…and 9 more overdue").
 */
export function digestMessage(
  rows: readonly (MineRow & { due: DigestGroup })[],
  today: string,
): { text: string; blocks: KnownBlock[] } {
  const day = formatDueDate(today);
  if (!hasNews(rows)) {
    const text = `Nothing overdue, due today or due tomorrow (${day}).`;
    return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
  }
  const of = (g: DigestGroup) => rows.filter((r) => r.due === g);
  const words: Record<DigestGroup, string> = {
    overdue: 'overdue',
    today: 'due today',
    tomorrow: 'due tomorrow',
    later: 'later this week',
  };
  const parts = ORDER.filter((g) => of(g).length).map((g) => `${of(g).length} ${words[g]}`);
  const text = `Your tasks for ${day}: ${parts.join(', ')}.`;
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${text}*` } }];
  for (const group of ORDER) {
    const list = of(group);
    if (!list.length) continue;
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `*${TITLE[group]} (${list.length})*` }],
    });
    list.slice(0, PER_SECTION).forEach((r) => {
      // One line, one menu (Mark complete, Details, Open in …): not a row of buttons.
      blocks.push({
        type: 'section',
        block_id: `digest_task_${group}_${r.taskId.slice(-8)}`,
        text: { type: 'mrkdwn', text: cut(mineRowText(r), 3000) },
        accessory: taskRowMenu(r, ['complete', 'details']),
      });
    });
    if (list.length > PER_SECTION) {
      blocks.push({
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `…and ${list.length - PER_SECTION} more ${words[group]}: \`/work list mine\`.`,
          },
        ],
      });
    }
  }
  return { text, blocks };
}
