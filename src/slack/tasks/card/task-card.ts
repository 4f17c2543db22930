/**
 * The task card: a pure function of its data. Shown after create, by `/work task`, by the
 * Open button of lists, and after Mark complete (replacing the card it was pressed on).
 * Its buttons carry the task id, so they work wherever the card is (channel, ephemeral, DM).
 */
import type { Button, KnownBlock, SectionBlock } from '@slack/types';
import type { TaskCardData } from '../../context/ports.js';
import { openInButton } from '../../context/work-links.js';
import { formatDueDate } from '../../format/date-text.js';
import { cut, esc } from '../../format/text.js';
import { ACTION } from '../../ui/block-ids.js';

/** The "Open in …" URL button of a task, when its address is known. */
export function openButtons(d: Pick<TaskCardData, 'open'>): Button[] {
  return d.open ? [openInButton(d.open.label, d.open.url)] : [];
}

/** The card's heading line: "✅ *Fix the login page* #12". */
export function taskTitle(d: Pick<TaskCardData, 'name' | 'number' | 'status'>): string {
  const name = esc(cut(d.name.trim() || 'Untitled task', 300));
  const number = d.number !== undefined ? ` #${d.number}` : '';
  return `${d.status.done ? '✅ ' : ''}*${name}*${number}`;
}

/** Assignees as mentions (matched by e-mail) or names; "nobody" when none. */
export function assigneeText(assignees: TaskCardData['assignees']): string {
  if (assignees.length === 0) return '_nobody_';
  return assignees.map((a) => (a.slackUserId ? `<@${a.slackUserId}>` : esc(a.name))).join(', ');
}

export function statusText(status: TaskCardData['status']): string {
  return status.done ? `✅ ${esc(status.name)}` : esc(status.name);
}

/** Plain text for notifications and screen readers. */
export function taskCardText(d: TaskCardData): string {
  // The fallback is mrkdwn too (and all a phone notification shows): escaped like the blocks.
  const parts = [
    `${esc(d.name.trim() || 'Untitled task')}${d.number !== undefined ? ` #${d.number}` : ''}`,
    d.projectName && esc(d.projectName),
    statusText(d.status),
    d.dueDate ? `due ${formatDueDate(d.dueDate)}` : undefined,
  ];
  return cut(parts.filter(Boolean).join(' · '), 3000);
}

/** A button acting on a task: its value is the task id, wherever the message is. */
export function taskButton(
  taskId: string,
  text: string,
  actionId: string,
  style?: 'primary',
): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text },
    value: taskId,
    ...(style ? { style } : {}),
  };
}

export function taskCard(d: TaskCardData): KnownBlock[] {
  const field = (label: string, value: string) => ({
    type: 'mrkdwn' as const,
    text: cut(`*${label}*\n${value}`, 2000),
  });
  const fields = [
    field('Project', d.projectName ? esc(d.projectName) : '_unknown_'),
    field('Status', statusText(d.status)),
    field('Assignees', assigneeText(d.assignees)),
    field('Due', formatDueDate(d.dueDate)),
  ];
  if (d.groupName) fields.push(field('Group', esc(d.groupName)));
  if (d.priorityName) fields.push(field('Priority', esc(d.priorityName)));
  if (d.estimate !== undefined) fields.push(field('Estimate', `${d.estimate} h`));
  if (d.milestone !== undefined) fields.push(field('Milestone', String(d.milestone)));

  const button = (text: string, actionId: string, style?: 'primary') =>
    taskButton(d.taskId, text, actionId, style);
  const buttons = [button('Comment', ACTION.taskComment), button('Edit', ACTION.taskEdit)];
  buttons.push(
    d.status.done
      ? button('Reopen', ACTION.taskReopen)
      : button('Mark complete', ACTION.taskComplete, 'primary'),
  );
  buttons.push(...openButtons(d));

  const heading: SectionBlock = {
    type: 'section',
    text: { type: 'mrkdwn', text: taskTitle(d) },
  };
  return [
    heading,
    { type: 'section', fields: fields.slice(0, 10) },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `Task id \`${d.taskId}\`` }] },
    { type: 'actions', block_id: 'task_card_actions', elements: buttons },
  ];
}
