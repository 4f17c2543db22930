/**
 * The DM an assignee gets for a new task: who assigned what, in which project, when it is
 * due (calendar date in words), its priority, and the task buttons (Comment, Mark complete,
 * Open) that the task listeners handle wherever they are clicked, a DM included.
 * A pure function of the outbox row's inputs.
 */
import type { KnownBlock } from '@slack/types';
import type { OutboxRow } from '../../store/index.js';
import { PRIORITY_NAMES, priorityNumber } from '../../workapi/contract.js';
import { calendarDate, formatDueDate } from '../format/date-text.js';
import { esc } from '../format/text.js';
import { ACTION } from '../ui/block-ids.js';
import { remindOverflow } from '../ui/remind-overflow.js';

export interface AssignmentInput {
  taskId: string;
  taskName: string;
  /** Project name; left out of the sentence when unknown. */
  projectName?: string;
  /** '<@U123>' for a Slack user (kept as a mention), else a plain name (escaped). */
  creator?: string;
  /** The service's date-time or a yyyy-MM-dd; shown by its calendar date. */
  dueDate?: string | null;
  /** "0"–"4" or a name. */
  priority?: string | null;
}

export interface AssignmentMessage {
  text: string;
  blocks: KnownBlock[];
}

const MENTION = /^<@[UW][A-Z0-9_]+>$/;

/** A name in bold; esc() keeps its own marks from ending the bold half-way. */
export function bold(s: string): string {
  const clean = esc(s.replace(/\s+/g, ' ').trim());
  return `*${clean || 'Untitled task'}*`;
}

/** Who acted, as shown: a mention kept, a name escaped; undefined when nobody is known. */
export function creatorText(creator: string | undefined): string | undefined {
  if (!creator?.trim()) return undefined;
  return MENTION.test(creator) ? creator : esc(creator.trim());
}

export function priorityName(priority: string | null | undefined): string | undefined {
  const n = priorityNumber(priority);
  return n === undefined ? undefined : PRIORITY_NAMES[n];
}

export function assignmentMessage(input: AssignmentInput): AssignmentMessage {
  const who = creatorText(input.creator);
  const where = input.projectName?.trim() ? ` in ${bold(input.projectName)}` : '';
  // Nobody is invented: without a known actor the sentence says only what happened.
  const sentence = who
    ? `${who} assigned you ${bold(input.taskName)}${where}`
    : `You were assigned ${bold(input.taskName)}${where}`;
  const due = formatDueDate(input.dueDate);
  const priority = priorityName(input.priority);
  const details = [`*Due:* ${due}`, ...(priority ? [`*Priority:* ${priority}`] : [])];
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: sentence.slice(0, 3000) } },
    { type: 'context', elements: details.map((text) => ({ type: 'mrkdwn', text })) },
    {
      type: 'actions',
      block_id: 'assignment_actions',
      elements: [
        {
          type: 'button',
          action_id: ACTION.taskComment,
          text: { type: 'plain_text', text: 'Comment' },
          value: input.taskId,
        },
        {
          type: 'button',
          action_id: ACTION.taskComplete,
          text: { type: 'plain_text', text: 'Mark complete' },
          style: 'primary',
          value: input.taskId,
        },
        {
          type: 'button',
          action_id: ACTION.taskOpen,
          text: { type: 'plain_text', text: 'Details' },
          value: input.taskId,
        },
        remindOverflow(input.taskId),
      ],
    },
  ];
  // The notification text (shown in the OS notification) says the same in plain words.
  const when = calendarDate(input.dueDate) ? `due ${due}` : due;
  const text = `${sentence} — ${when}${priority ? `, priority ${priority}` : ''}`;
  return { text, blocks };
}

/** What an outbox row sends: the message it carries (digest, activity DMs), else its assignment DM. */
export function rowMessage(row: OutboxRow): AssignmentMessage {
  if (row.message) return JSON.parse(row.message) as AssignmentMessage;
  return assignmentMessage({
    taskId: row.taskId,
    taskName: row.taskName,
    projectName: row.projectName,
    creator: row.creatorLabel,
    dueDate: row.dueDate,
    priority: row.priority,
  });
}
