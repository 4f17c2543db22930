/**
 * A page of tasks: a compact row per task with an Open button, and Previous/Next buttons.
 * Pure. The paging buttons carry {projectId, filter, page} as JSON; their action ids are
 * ACTION.taskListPage + ":prev" / ":next" (two buttons in one block need distinct ids).
 */

import type { Button, KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { TaskCardData } from '../../context/ports.js';
import { calendarDate, formatDueDate } from '../../format/date-text.js';
import { cut, esc } from '../../format/text.js';
import { ACTION } from '../../ui/block-ids.js';
import { readCarried } from '../../ui/metadata.js';
import { taskRowMenu } from '../card/row-menu.js';
import { assigneeText, statusText, taskTitle } from '../card/task-card.js';

export const PAGE_SIZE = 20;
export type ListFilter = 'open' | 'done' | 'all';

export interface ListPageValue {
  projectId: string;
  filter: ListFilter;
  /** 0-based. */
  page: number;
}

export const LIST_PREV = `${ACTION.taskListPage}:prev`;
export const LIST_NEXT = `${ACTION.taskListPage}:next`;

/** Not done and due before `today` (the viewer's date, yyyy-MM-dd). */
function overdue(row: TaskCardData, today: string | undefined): boolean {
  const due = calendarDate(row.dueDate);
  return Boolean(today && due && !row.status.done && due < today);
}

export interface TaskListData {
  /** The viewer's date in their time zone (yyyy-MM-dd): judges "overdue". */
  today?: string;
  projectId: string;
  projectName: string;
  filter: ListFilter;
  page: number;
  total: number;
  /** This page's tasks; a task that could not be loaded has only its id and name. */
  rows: (TaskCardData & { partial?: boolean })[];
}

const FILTER_WORD: Record<ListFilter, string> = {
  open: 'Open tasks',
  done: 'Done tasks',
  all: 'Tasks',
};

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

export function taskListMessage(d: TaskListData): { text: string; blocks: KnownBlock[] } {
  // A project's name is cut where it is shown: a heading is one line, not 3,000 characters.
  const project = esc(cut(d.projectName, 150));
  const heading = `${FILTER_WORD[d.filter]} in ${project}`;
  if (d.total === 0) {
    const none = `No ${d.filter === 'all' ? '' : `${d.filter} `}tasks in *${project}*.`;
    return { text: none, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: none } }] };
  }
  const first = d.page * PAGE_SIZE + 1;
  const last = Math.min(d.total, first + d.rows.length - 1);
  const range = `${first}–${last} of ${d.total}`;
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${heading}* (${range})` } },
  ];
  d.rows.forEach((row, i) => {
    const details = row.partial
      ? '_details unavailable_'
      : [
          statusText(row.status),
          row.dueDate
            ? `${overdue(row, d.today) ? ':warning: overdue, ' : ''}due ${formatDueDate(row.dueDate)}`
            : undefined,
          row.assignees.length ? assigneeText(row.assignees) : undefined,
        ]
          .filter(Boolean)
          .join(' · ');
    blocks.push({
      type: 'section',
      block_id: `task_row_${i}`,
      text: { type: 'mrkdwn', text: cut(`${taskTitle(row)}\n${details}`, 3000) },
      accessory: taskRowMenu(row),
    });
  });
  const pages = pageCount(d.total);
  const nav: Button[] = [];
  const value = (page: number) =>
    JSON.stringify({ projectId: d.projectId, filter: d.filter, page } satisfies ListPageValue);
  if (d.page > 0) {
    nav.push({
      type: 'button',
      action_id: LIST_PREV,
      text: { type: 'plain_text', text: '← Previous' },
      value: value(d.page - 1),
    });
  }
  if (d.page < pages - 1) {
    nav.push({
      type: 'button',
      action_id: LIST_NEXT,
      text: { type: 'plain_text', text: 'Next →' },
      value: value(d.page + 1),
    });
  }
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `Page ${d.page + 1} of ${pages}` }],
  });
  if (nav.length) blocks.push({ type: 'actions', block_id: 'task_list_nav', elements: nav });
  return { text: `${heading} (${range})`, blocks };
}

/** The paging button's value back; undefined when it is not ours. */
export function readListPageValue(raw: string | undefined): ListPageValue | undefined {
  return readCarried(raw, ListPageSchema);
}

const ListPageSchema = z.object({
  projectId: z.string().min(1),
  filter: z.enum(['open', 'done', 'all']),
  page: z.number().int().min(0),
});
