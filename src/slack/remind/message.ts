/**
 * The reminder DM, built from the task as it is when the reminder fires: its name, status,
 * due date and priority with Mark complete and Open — or, when it was done meanwhile, one line
 * saying so (and Open) instead of nagging. Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { Task } from '../../workapi/contract.js';
import { formatDueDate } from '../format/date-text.js';
import { cut } from '../format/text.js';
import { bold, priorityName } from '../notify/assignment-message.js';
import { ACTION } from '../ui/block-ids.js';

const button = (actionId: string, label: string, taskId: string) => ({
  type: 'button' as const,
  action_id: actionId,
  text: { type: 'plain_text' as const, text: label },
  value: taskId,
});

/** `task` undefined: it could not be read (gone, or the service failed). */
export function reminderMessage(
  taskId: string,
  task: Task | undefined,
  known: { name?: string; number?: number } = {},
): { text: string; blocks: KnownBlock[] } {
  const name = bold(task?.taskName ?? known.name ?? taskId);
  const number = known.number !== undefined ? ` #${known.number}` : '';
  if (!task) {
    const text = `⏰ You asked to be reminded of ${name}${number}, but Worklink could not read it now (it may have been deleted).`;
    return { text, blocks: [section(text)] };
  }
  if (task.status === true) {
    const text = `⏰ You asked to be reminded of ${name}${number}: it is already done ✅, nothing to do.`;
    return {
      text,
      blocks: [section(text), actions([button(ACTION.taskOpen, 'Open', taskId)])],
    };
  }
  const facts = [
    `Due: ${formatDueDate(task.dueDate)}`,
    ...(priorityName(task.priority) ? [`Priority: ${priorityName(task.priority)}`] : []),
  ].join(' · ');
  const text = `⏰ Reminder: ${name}${number}. ${facts}`;
  return {
    text,
    blocks: [
      section(`⏰ *Reminder:* ${name}${number}\n${facts}`),
      actions([
        button(ACTION.taskComplete, 'Mark complete', taskId),
        button(ACTION.taskOpen, 'Open', taskId),
      ]),
    ],
  };
}

const section = (text: string): KnownBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: cut(text, 3000) },
});

const actions = (elements: ReturnType<typeof button>[]): KnownBlock => ({
  type: 'actions',
  block_id: 'reminder_dm_actions',
  elements,
});
