/**
 * The live messages about a task, as pure functions of its card data: the compact card a
 * creation posts ("<@alice> created *#12 Fix login page* for <@bob>, due Fri, Dec 4, 2026")
 * and an assignee's DM ("<@alice> assigned you *Fix login page* in *Website*"). Both are
 * re-rendered with chat.update when the task changes, so they always show its name, due date,
 * assignees and status; once it is done their buttons become Reopen, Details and Open in ….
 */
import type { Button, KnownBlock } from '@slack/types';
import type { TaskMessageKind } from '../../../store/index.js';
import type { TaskCardData } from '../../context/ports.js';
import { calendarDate, formatDueDate } from '../../format/date-text.js';
import { cut, esc } from '../../format/text.js';
import { ACTION } from '../../ui/block-ids.js';
import { remindOverflow } from '../../ui/remind-overflow.js';
import { assigneeText, openButtons, taskButton } from './task-card.js';

export interface LiveMessageInput {
  kind: TaskMessageKind;
  data: TaskCardData;
  /** Who created (card) or assigned (DM): '<@U…>' kept as a mention, else a name. */
  actor?: string;
}

export interface LiveMessage {
  text: string;
  blocks: KnownBlock[];
}

const MENTION = /^<@[UW][A-Z0-9_]+>$/;

function actorText(actor: string | undefined): string {
  if (!actor?.trim()) return 'Someone';
  return MENTION.test(actor) ? actor : esc(actor.trim());
}

/** "*#12 Fix login page*" (esc() keeps a name's own * from ending the bold half-way). */
function liveTitle(d: TaskCardData): string {
  const name = esc(cut(d.name.replace(/\s+/g, ' ').trim() || 'Untitled task', 300));
  return `*${d.number !== undefined ? `#${d.number} ` : ''}${name}*`;
}

export function liveMessage({ kind, data, actor }: LiveMessageInput): LiveMessage {
  const who = actorText(actor);
  const done = data.status.done ? '✅ ' : '';
  const due = calendarDate(data.dueDate) ? `due ${formatDueDate(data.dueDate)}` : 'no due date';
  const project = data.projectName ? ` in *${esc(data.projectName)}*` : '';
  const head =
    kind === 'card'
      ? `${done}${who} created ${liveTitle(data)}${data.assignees.length ? ` for ${assigneeText(data.assignees)}` : ''}, ${due}`
      : `${done}${who} assigned you ${liveTitle(data)}${project}`;
  const details =
    kind === 'card'
      ? [`Status: *${esc(data.status.name)}*`, data.projectName && esc(data.projectName)]
      : [
          `Due: ${formatDueDate(data.dueDate)}`,
          `Status: *${esc(data.status.name)}*`,
          `Assignees: ${assigneeText(data.assignees)}`,
        ];
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: cut(head, 3000) } },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: cut(details.filter(Boolean).join(' · '), 2000) }],
    },
    {
      type: 'actions',
      block_id: 'live_task_actions',
      // An open task's messages also offer "Remind me" (ui/remind-overflow.ts).
      elements: [
        ...liveButtons(kind, data),
        ...(data.status.done ? [] : [remindOverflow(data.taskId)]),
      ],
    },
  ];
  // The fallback `text` (notifications, screen readers) is mrkdwn too: escaped like the rest.
  const plain = `${data.status.done ? '✅ ' : ''}${esc(data.name.trim() || 'Untitled task')} — ${esc(data.status.name)}, ${due}`;
  return { text: cut(plain, 3000), blocks };
}

/**
 * Open: Comment, (Edit on cards,) Mark complete, Details, Open in …. Done: Reopen, Details,
 * Open in …. Details shows the current card where the person is (tasks/actions.ts).
 */
function liveButtons(kind: TaskMessageKind, d: TaskCardData): Button[] {
  const button = (text: string, actionId: string, style?: 'primary') =>
    taskButton(d.taskId, text, actionId, style);
  const details = [button('Details', ACTION.taskOpen), ...openButtons(d)];
  if (d.status.done) return [button('Reopen', ACTION.taskReopen), ...details];
  return [
    button('Comment', ACTION.taskComment),
    ...(kind === 'card' ? [button('Edit', ACTION.taskEdit)] : []),
    button('Mark complete', ACTION.taskComplete, 'primary'),
    ...details,
  ];
}
