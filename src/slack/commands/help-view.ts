/**
 * `/work help`: short and task-first — the five things people do, with buttons — and
 * `/work help all`, built from the router's subcommands (so it lists exactly what exists):
 * one line per command with one example, grouped under their `group` heading; commands only
 * admins may use are listed to admins only.
 */
import type { KnownBlock } from '@slack/types';
import { ACTION } from '../ui/block-ids.js';

export interface HelpEntry {
  usage: string;
  example: string;
  summary: string;
  group?: string;
}

export interface HelpMessage {
  text: string;
  blocks: KnownBlock[];
}

/** The five things people do with Worklink, each with how (and a button where one helps). */
export function quickHelp(userId: string, intro?: string): HelpMessage {
  const button = (text: string, action_id: string, value?: string) => ({
    type: 'button' as const,
    text: { type: 'plain_text' as const, text },
    action_id,
    ...(value ? { value } : {}),
  });
  const line = (text: string, accessory?: ReturnType<typeof button>): KnownBlock => ({
    type: 'section',
    text: { type: 'mrkdwn', text },
    ...(accessory ? { accessory } : {}),
  });
  const blocks: KnownBlock[] = [];
  if (intro) blocks.push(line(intro));
  blocks.push(
    { type: 'header', text: { type: 'plain_text', text: 'What you can do with Worklink' } },
    line(
      '*Create a task* — `/work new` opens a form; `/work add Fix login @bob due:friday` makes one in a line.',
      button('New task', ACTION.homeNewTask),
    ),
    line(
      '*See your tasks* — `/work list mine`: overdue first, then today, this week, later. Also in Worklink’s Home tab.',
      button('My tasks', `${ACTION.taskMinePage}:first`, JSON.stringify({ user: userId, page: 0 })),
    ),
    line('*Finish a task* — `/work done fix login` (words of its name, or `#12`).'),
    line('*Comment on a task* — `/work comment fix login: Looks good to me`.'),
    line('*Turn a message into a task* — a message’s ⋯ menu → *Create task from message*.'),
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Everything else: `/work help all`. Only you see this.' }],
    },
  );
  const text = [
    intro,
    'What you can do with Worklink: create a task (/work new), see your tasks (/work list mine), finish one (/work done), comment (/work comment), turn a message into a task (its ⋯ menu). Everything else: /work help all.',
  ]
    .filter(Boolean)
    .join('\n');
  return { text, blocks };
}

/** Every command (`/work help all`); `intro` comes first. */
export function helpMessage(entries: readonly HelpEntry[], intro?: string): HelpMessage {
  const groups = new Map<string, HelpEntry[]>();
  for (const entry of entries) {
    const group = entry.group ?? 'Other';
    groups.set(group, [...(groups.get(group) ?? []), entry]);
  }
  const blocks: KnownBlock[] = [];
  if (intro) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: intro } });
  blocks.push({ type: 'header', text: { type: 'plain_text', text: 'Worklink commands' } });
  const lines: string[] = [];
  for (const [group, list] of groups) {
    const body = list
      .map((e) => `\`/work ${e.usage}\` — ${e.summary}\n      e.g. \`/work ${e.example}\``)
      .join('\n');
    // A section's text holds at most 3000 characters.
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `*${group}*\n${body}`.slice(0, 3000) },
    });
    lines.push(`${group}:`, ...list.map((e) => `  /work ${e.usage} — ${e.summary}`));
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: 'Name a task by words of its name or `#12`, a project by words of its name; ids work too. Only you see these replies.',
      },
    ],
  });
  const text = [intro, 'Worklink commands:', ...lines].filter(Boolean).join('\n');
  return { text, blocks: blocks.slice(0, 50) };
}
