/**
 * The pick list a task command answers when several tasks match: up to 5 rows (number, name,
 * project, assignees), each with a button that finishes the command. Pure. The button's
 * value is JSON {verb, taskId, rest}; `rest` is what followed the task (a comment, people).
 */

import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { cut, esc } from '../format/text.js';
import { ACTION } from '../ui/block-ids.js';
import { readCarried } from '../ui/metadata.js';
import { COUNT_LIMIT } from './find-task.js';

/** The task commands a pick list can finish. */
export type TaskVerb = 'task' | 'edit' | 'done' | 'comment' | 'assign';

export interface PickValue {
  verb: TaskVerb;
  taskId: string;
  rest: string;
}

export interface PickRow {
  taskId: string;
  number?: number;
  name: string;
  projectName: string;
  done: boolean;
  assignees: string[];
  /** The task's address in the service: its name links there ("Open in …"). */
  url?: string;
}

const BUTTON: Record<TaskVerb, string> = {
  task: 'Show',
  edit: 'Edit',
  done: 'Mark complete',
  comment: 'Comment here',
  assign: 'Assign',
};

/** "#12 Fix login page" — the one way a task is named in lists and cards. */
export function numbered(name: string, number: number | undefined): string {
  return number !== undefined ? `#${number} ${name}` : name;
}

export function pickListMessage(input: {
  verb: TaskVerb;
  rest: string;
  tasks: readonly PickRow[];
  /** How many match in all (the rows are the first few). */
  total?: number;
}): { text: string; blocks: KnownBlock[] } {
  const total = Math.max(input.total ?? 0, input.tasks.length);
  // The count is the true one: "11 match; showing 5 — add a word" when not all are shown.
  const heading =
    total > input.tasks.length
      ? `${total >= COUNT_LIMIT ? `${COUNT_LIMIT} or more` : total} tasks match; showing ${input.tasks.length} — add a word to narrow it.`
      : `${total} tasks match. Which one?`;
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: heading } }];
  input.tasks.forEach((t, i) => {
    const title = esc(cut(numbered(t.name, t.number), 200));
    const line = [
      `${t.done ? '✅ ' : ''}*${t.url ? `<${t.url}|${title}>` : title}*`,
      esc(t.projectName),
      t.assignees.length ? esc(people(t.assignees)) : '_nobody_',
    ].join(' · ');
    const value: PickValue = { verb: input.verb, taskId: t.taskId, rest: input.rest };
    blocks.push({
      type: 'section',
      block_id: `task_pick_${i}`,
      text: { type: 'mrkdwn', text: line },
      accessory: {
        type: 'button',
        action_id: ACTION.taskPick,
        text: { type: 'plain_text', text: BUTTON[input.verb] },
        value: JSON.stringify(value),
      },
    });
  });
  return { text: heading, blocks };
}

/** The first few assignees, then how many more: a row stays one line, however many. */
function people(names: readonly string[], shown = 5): string {
  const first = names.slice(0, shown).map((n) => cut(n, 60));
  return names.length > shown
    ? `${first.join(', ')} and ${names.length - shown} more`
    : first.join(', ');
}

const VERBS: readonly TaskVerb[] = ['task', 'edit', 'done', 'comment', 'assign'];

/** A pick button's value back; undefined when it is not one of ours. */
export function readPickValue(raw: string | undefined): PickValue | undefined {
  return readCarried(
    raw,
    z.object({ verb: z.enum(VERBS), taskId: z.string().min(1), rest: z.string() }),
  );
}
