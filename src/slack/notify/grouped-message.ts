/**
 * The ONE message that stands for several DMs held for a person (store/held-dms.ts): those
 * that came during their quiet hours, or in a burst (dm-gate.ts). Assignments are told as what
 * they are — "You were assigned 12 tasks in *Website relaunch*" — with the first few named and
 * a button to the person's whole list; other notifications are listed one line each, as their
 * own DMs would have said them. Pure: it returns the {text, blocks} the outbox row carries.
 */
import type { KnownBlock } from '@slack/types';
import type { HeldDm } from '../../store/index.js';
import { esc, plural } from '../format/text.js';
import { ACTION } from '../ui/block-ids.js';
import { context, packed, section } from '../ui/blocks.js';

/** Assigned tasks the message names; the count and "My tasks" tell the rest. */
export const NAMED_TASKS = 5;
/** Other notifications listed at most (their own words; Slack allows 50 blocks). */
const MAX_LINES = 40;

/** The "My tasks" button's action: its list comes as a new reply, the DM stays. */
export const MINE_FROM_DM = `${ACTION.taskMinePage}:open`;

export interface GroupedMessage {
  text: string;
  blocks: KnownBlock[];
}

export function groupedMessage(held: readonly HeldDm[]): GroupedMessage {
  const quiet = held.some((h) => (h.cause ?? 'quiet') === 'quiet');
  const assigned = held.filter((h) => h.kind === 'assigned');
  const recipient = held[0]?.slackUserId ?? '';
  if (assigned.length === held.length) return assignmentsMessage(assigned, quiet, recipient);
  const head = quiet
    ? `While your quiet hours were on, ${held.length} notifications came in`
    : `${held.length} notifications came in at once`;
  const lines = held.slice(0, MAX_LINES).map((h) => `• ${h.summary}`);
  const more = held.length - lines.length;
  const blocks: KnownBlock[] = [section(`*${head}:*`), ...lines.map(section)];
  if (more > 0) blocks.push(context(`…and ${more} more.`));
  if (assigned.length) blocks.push(mineButton(recipient));
  return { text: `${head}.`, blocks };
}

/** "You were assigned 12 tasks in *Website relaunch*", the first few, and My tasks. */
function assignmentsMessage(
  held: readonly HeldDm[],
  quiet: boolean,
  recipient: string,
): GroupedMessage {
  const projects = [...new Set(held.map((h) => h.projectName?.trim()).filter(Boolean))];
  // Bold in the message; the notification's text says it plainly (escaped all the same).
  const where = (mark: string) =>
    projects.length === 1
      ? ` in ${mark}${esc(projects[0] ?? '')}${mark}`
      : projects.length > 1
        ? ` in ${projects.length} projects`
        : '';
  const tasks = plural(held.length, 'task');
  const head = (mark: string) =>
    quiet
      ? `While your quiet hours were on, you were assigned ${tasks}${where(mark)}`
      : `You were assigned ${tasks}${where(mark)}`;
  const named = held.slice(0, NAMED_TASKS).map((h) => {
    const name = `*${esc(h.taskName?.trim() || 'Untitled task')}*`;
    return projects.length > 1 && h.projectName
      ? `• ${name} in ${esc(h.projectName)}`
      : `• ${name}`;
  });
  const more = held.length - named.length;
  const blocks: KnownBlock[] = [section(head('*')), ...packed('', named)];
  if (more > 0) {
    blocks.push(context(`…and ${more} more. \`/work list mine\` lists every task of yours.`));
  }
  blocks.push(mineButton(recipient));
  return { text: `${head('')}.`, blocks };
}

function mineButton(slackUserId: string): KnownBlock {
  return {
    type: 'actions',
    block_id: 'grouped_dm_actions',
    elements: [
      {
        type: 'button',
        action_id: MINE_FROM_DM,
        text: { type: 'plain_text', text: 'See all in My tasks' },
        value: JSON.stringify({ user: slackUserId, page: 0 }),
      },
    ],
  };
}
