/**
 * "My tasks" as a message (`/work list mine`, paged like `/work list`) and as App Home
 * blocks (each row with one menu: Mark complete, Details, Comment, Open in …). Pure.
 * Paging buttons carry {user, page}.
 */

import type { Button, KnownBlock } from '@slack/types';
import { z } from 'zod';
import { formatDueDate } from '../../format/date-text.js';
import { statusWords } from '../../format/status-words.js';
import { cut, esc } from '../../format/text.js';
import { ACTION } from '../../ui/block-ids.js';
import { readCarried } from '../../ui/metadata.js';
import { taskRowMenu } from '../card/row-menu.js';
import { GROUP_TITLE } from './due-groups.js';
import type { MineData, MineRow } from './load.js';

export const MINE_PAGE_SIZE = 20;
export const MINE_PREV = `${ACTION.taskMinePage}:prev`;
export const MINE_NEXT = `${ACTION.taskMinePage}:next`;

export interface MinePageValue {
  /** Whose tasks (Slack user id). */
  user: string;
  /** 0-based. */
  page: number;
}

/** "#12 *Fix login* · Website · ⚠️ overdue (due Mon, Nov 23, 2026) · In Progress". */
export function mineRowText(row: MineRow): string {
  const name = `${row.number !== undefined ? `#${row.number} ` : ''}*${esc(cut(row.name || 'Untitled task', 200))}*`;
  const due =
    row.group === 'overdue'
      ? `:warning: overdue (due ${formatDueDate(row.dueDate)})`
      : row.dueDate
        ? `due ${formatDueDate(row.dueDate)}`
        : undefined;
  return [name, esc(row.projectName), due, esc(statusWords(row.statusName, row.done))]
    .filter(Boolean)
    .join(' · ');
}

function heading(d: MineData): string {
  return d.own ? 'Your open tasks' : `Open tasks of <@${d.slackUserId}>`;
}

/** Rows under their group headings. */
function grouped(rows: readonly MineRow[], row: (r: MineRow, i: number) => KnownBlock[]) {
  const blocks: KnownBlock[] = [];
  let group: string | undefined;
  rows.forEach((r, i) => {
    if (r.group !== group) {
      group = r.group;
      blocks.push({
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `*${GROUP_TITLE[r.group]}*` }],
      });
    }
    blocks.push(...row(r, i));
  });
  return blocks;
}

export function mineMessage(
  d: MineData,
  requestedPage = 0,
): { text: string; blocks: KnownBlock[] } {
  if (d.rows.length === 0) {
    const none = d.own
      ? 'You have no open tasks in the projects Worklink watches.'
      : `<@${d.slackUserId}> has no open tasks in the projects Worklink watches.`;
    return { text: none, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: none } }] };
  }
  const pages = Math.max(1, Math.ceil(d.rows.length / MINE_PAGE_SIZE));
  const page = Math.min(Math.max(0, requestedPage), pages - 1);
  const slice = d.rows.slice(page * MINE_PAGE_SIZE, (page + 1) * MINE_PAGE_SIZE);
  const first = page * MINE_PAGE_SIZE + 1;
  const range = `${first}–${first + slice.length - 1} of ${d.rows.length}`;
  const overdue = d.rows.filter((r) => r.group === 'overdue').length;
  const title = `${heading(d)} (${range}${overdue ? `, ${overdue} overdue` : ''})`;
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${title}*` } }];
  blocks.push(
    ...grouped(slice, (r, i) => [
      {
        type: 'section',
        block_id: `mine_row_${i}`,
        text: { type: 'mrkdwn', text: cut(mineRowText(r), 3000) },
        accessory: taskRowMenu(r),
      },
    ]),
  );
  const nav: Button[] = [];
  const value = (p: number) =>
    JSON.stringify({ user: d.slackUserId, page: p } satisfies MinePageValue);
  if (page > 0) nav.push(navButton('← Previous', MINE_PREV, value(page - 1)));
  if (page < pages - 1) nav.push(navButton('Next →', MINE_NEXT, value(page + 1)));
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `Page ${page + 1} of ${pages}` }],
  });
  if (nav.length) blocks.push({ type: 'actions', block_id: 'mine_nav', elements: nav });
  return { text: title, blocks };
}

function navButton(text: string, actionId: string, value: string): Button {
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text }, value };
}

/** Home shows my tasks a page at a time (10), with Previous / Next. */
export function mineHomeBlocks(
  d: MineData | { problem: string },
  limit = 10,
  page = 0,
): KnownBlock[] {
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: '*My tasks*' } }];
  if ('problem' in d) {
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: d.problem }] });
    return blocks;
  }
  if (d.rows.length === 0) {
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: 'No open tasks. Nice.' }] });
    return blocks;
  }
  const pages = Math.max(1, Math.ceil(d.rows.length / limit));
  const at = Math.min(Math.max(0, page), pages - 1);
  const first = at * limit;
  blocks.push(
    // One line, one menu per task (Slack allows 100 blocks in a Home tab).
    ...grouped(d.rows.slice(first, first + limit), (r, i) => [
      {
        type: 'section',
        block_id: `home_task_${i}`,
        text: { type: 'mrkdwn', text: cut(mineRowText(r), 3000) },
        accessory: taskRowMenu(r, ['complete', 'details', 'comment'], ACTION.homeTaskMenu),
      },
    ]),
  );
  if (pages > 1) {
    const shownTo = Math.min(d.rows.length, first + limit);
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `${first + 1}–${shownTo} of ${d.rows.length} · page ${at + 1} of ${pages}`,
        },
      ],
    });
    const nav: Button[] = [];
    if (at > 0) nav.push(navButton('← Previous', `${ACTION.homeMinePage}:prev`, String(at - 1)));
    if (at < pages - 1)
      nav.push(navButton('Next →', `${ACTION.homeMinePage}:next`, String(at + 1)));
    blocks.push({ type: 'actions', block_id: 'home_mine_nav', elements: nav });
  }
  return blocks;
}

/** The paging button's value back; undefined when it is not ours. */
export function readMinePageValue(raw: string | undefined): MinePageValue | undefined {
  return readCarried(raw, z.object({ user: z.string().min(1), page: z.number().int().min(0) }));
}
