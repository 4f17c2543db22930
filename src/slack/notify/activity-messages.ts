/**
 * The DMs for what happens to a task after it was made (notify/activity-dms.ts queues them):
 * a comment (quoted, first 300 characters, with Reply and Open), a completion (to the task's
 * creator). (Several held DMs go out as one: grouped-message.ts.)
 * Pure; each returns the {text, blocks} an outbox row carries.
 */

import type { KnownBlock } from '@slack/types';
import { cut, esc } from '../format/text.js';
import { openButtons } from '../tasks/card/task-card.js';
import { ACTION } from '../ui/block-ids.js';
import { bold, creatorText } from './assignment-message.js';

export interface ActivityMessage {
  text: string;
  blocks: KnownBlock[];
}

/** What a comment DM quotes of the comment. */
export const QUOTE_CHARS = 300;

interface About {
  taskId: string;
  taskName: string;
  /** '<@U…>' for a Slack user, else a name. */
  actor?: string;
  /** "Open in …", when the task's address is known. */
  open?: { label: string; url: string };
}

const section = (text: string): KnownBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: cut(text, 3000) },
});

const button = (actionId: string, label: string, taskId: string) => ({
  type: 'button' as const,
  action_id: actionId,
  text: { type: 'plain_text' as const, text: label },
  value: taskId,
});

export function commentMessage(about: About & { comment: string; role: 'assignee' | 'creator' }) {
  const quoted = cut(about.comment.trim(), QUOTE_CHARS);
  const who = creatorText(about.actor);
  const sentence = who
    ? `${who} commented on ${bold(about.taskName)}`
    : `New comment on ${bold(about.taskName)}`;
  const why = about.role === 'creator' ? 'You created this task.' : 'You are assigned to it.';
  const quote = esc(quoted)
    .split('\n')
    .map((line) => `>${line}`)
    .join('\n');
  const blocks: KnownBlock[] = [
    section(`${sentence}:\n${quote}`),
    { type: 'context', elements: [{ type: 'mrkdwn', text: why }] },
    {
      type: 'actions',
      block_id: 'comment_dm_actions',
      elements: [
        button(ACTION.taskComment, 'Reply', about.taskId),
        button(ACTION.taskOpen, 'Details', about.taskId),
        ...openButtons(about),
      ],
    },
  ];
  return { text: cut(`${sentence}: ${esc(quoted.replace(/\s+/g, ' '))}`, 400), blocks };
}

export function completedMessage(about: About): ActivityMessage {
  const who = creatorText(about.actor);
  const sentence = who
    ? `${who} completed ${bold(about.taskName)}, a task you created`
    : `${bold(about.taskName)}, a task you created, was completed`;
  return {
    text: `${sentence}.`,
    blocks: [
      section(`:white_check_mark: ${sentence}.`),
      {
        type: 'actions',
        block_id: 'completed_dm_actions',
        elements: [button(ACTION.taskOpen, 'Details', about.taskId), ...openButtons(about)],
      },
    ],
  };
}
