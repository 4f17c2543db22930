/**
 * The type-ahead task picker: an external_select whose options Slack asks for while the
 * person types (a block_suggestion to the options load URL, answered here through Bolt's
 * `options()`), straight from the task index: words match names by prefix in any order,
 * `#12` is task 12 of the channel's project. Used wherever a modal chooses a task ("Add to
 * task as comment").
 */

import type { App } from '@slack/bolt';
import type { ExternalSelect, Option } from '@slack/types';
import { z } from 'zod';
import type { IndexedTask } from '../../store/index.js';
import type { WorklinkDeps } from '../context/deps.js';
import { onSuggestion } from '../context/on-suggestion.js';
import { cut } from '../format/text.js';
import { ACTION } from '../ui/block-ids.js';
import { carriedText, readCarried } from '../ui/metadata.js';

/** Options a picker offers at most (Slack allows 100; a short list reads better). */
const MAX_OPTIONS = 20;

export function taskPickerElement(placeholder: string): ExternalSelect {
  return {
    type: 'external_select',
    action_id: ACTION.taskPicker,
    placeholder: { type: 'plain_text', text: placeholder },
    min_query_length: 1,
  };
}

/** "#12 Fix login page · Website relaunch" (Slack shows 75 characters of an option). */
export function pickerOption(task: IndexedTask, projectName: string): Option {
  const name = `${task.number !== undefined ? `#${task.number} ` : ''}${task.name || 'Untitled task'}`;
  return {
    text: {
      type: 'plain_text',
      text: cut(`${task.done ? '✅ ' : ''}${name} · ${projectName}`, 75),
    },
    value: task.taskId,
  };
}

/** The picker's options for what was typed; `projectId`: the channel's project (for #12). */
export async function pickerOptions(
  deps: Pick<WorklinkDeps, 'store'>,
  teamId: string,
  typed: string,
  projectId?: string,
): Promise<Option[]> {
  const index = deps.store.taskIndex;
  const found: IndexedTask[] = [];
  const number = /^#?(\d{1,9})$/.exec(typed.trim());
  if (number && projectId) {
    const task = await index.byNumber(teamId, projectId, Number(number[1]));
    if (task) found.push(task);
  }
  for (const t of await index.search(teamId, typed, { limit: MAX_OPTIONS })) {
    if (!found.some((f) => f.taskId === t.taskId)) found.push(t);
  }
  const names = new Map<string, string>();
  const shown = found.slice(0, MAX_OPTIONS);
  for (const t of shown) {
    if (!names.has(t.projectId)) {
      const known = await deps.store.knownProjects.get(teamId, t.projectId);
      names.set(t.projectId, known?.projectName ?? t.projectId);
    }
  }
  return shown.map((t) => pickerOption(t, names.get(t.projectId) ?? t.projectId));
}

/** The comment-from-message modal carries the message's channel (its project narrows the list). */
const PickerMeta = z.object({ messageChannel: carriedText });

export function register(app: App, deps: WorklinkDeps): void {
  // Answered from SQLite only: well inside Slack's 3 seconds.
  onSuggestion(app, deps, ACTION.taskPicker, 'Task picker', async (teamId, typed, body) => {
    const channel = readCarried(body.view?.private_metadata, PickerMeta)?.messageChannel;
    const projectId = channel
      ? (await deps.store.channelProjects.get(teamId, channel))?.projectId
      : undefined;
    return pickerOptions(deps, teamId, typed, projectId);
  });
}
