/**
 * A task row's one accessory (lists, My tasks, App Home, the digest): an overflow menu with
 * what the row's buttons used to do — Mark complete, Details, Comment, "Open in …" — so a
 * row is one line with one control instead of a line and a row of three buttons. A row
 * offering Details alone keeps a plain Details button.
 *
 * Option values: `complete:<taskId>`, `comment:<taskId>`, `url:<taskId>` (the browser opens
 * the address; nothing to do), and Details as the bare task id, as list rows sent it before.
 * Lists and the digest use ACTION.taskRowMenu (tasks/actions.ts); App Home its own
 * ACTION.homeTaskMenu, whose Mark complete publishes Home again (home/publish.ts).
 */
import type { Button, Overflow, PlainTextOption } from '@slack/types';
import type { ActionArgs } from '../../context/on-action.js';
import type { TaskCardData } from '../../context/ports.js';
import { cut } from '../../format/text.js';
import { ACTION } from '../../ui/block-ids.js';

export type RowChoice = 'complete' | 'details' | 'comment';

const LABEL: Record<RowChoice, string> = {
  complete: 'Mark complete',
  details: 'Details',
  comment: 'Comment',
};

const plain = (text: string) => ({ type: 'plain_text' as const, text });

function optionValue(choice: RowChoice, taskId: string): string {
  return choice === 'details' ? taskId : `${choice}:${taskId}`;
}

/**
 * The accessory of a task row: a menu of `choices` (in this order) and "Open in …" when the
 * task's address is known; a Details button when that would be all.
 */
export function taskRowMenu(
  d: Pick<TaskCardData, 'taskId' | 'open'>,
  choices: readonly RowChoice[] = ['details'],
  actionId: string = ACTION.taskRowMenu,
): Overflow | Button {
  if (!d.open && choices.length === 1 && choices[0] === 'details') {
    return { type: 'button', action_id: ACTION.taskOpen, text: plain('Details'), value: d.taskId };
  }
  const options: PlainTextOption[] = choices.map((c) => ({
    text: plain(LABEL[c]),
    value: optionValue(c, d.taskId),
  }));
  if (d.open) {
    // Slack refuses an option's text past 75 characters (a long WORK_SERVICE_NAME).
    options.push({ text: plain(cut(d.open.label, 75)), value: `url:${d.taskId}`, url: d.open.url });
  }
  return { type: 'overflow', action_id: actionId, options };
}

/** What was picked in a row menu; undefined for "Open in …" (the browser opened it). */
export function readRowChoice(args: ActionArgs): { choice: RowChoice; taskId: string } | undefined {
  const { action } = args;
  const value =
    'selected_option' in action && action.selected_option ? action.selected_option.value : '';
  if (!value || value.startsWith('url:')) return undefined;
  const colon = value.indexOf(':');
  if (colon < 0) return { choice: 'details', taskId: value };
  const choice = value.slice(0, colon);
  const taskId = value.slice(colon + 1);
  if (choice === 'complete' || choice === 'comment') return { choice, taskId };
  return undefined;
}
