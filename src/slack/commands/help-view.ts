/**
 * `/work help`: built from the router's subcommands, so it lists exactly what exists.
 * One line per command with one example; commands grouped under their `group` heading.
 */
import type { KnownBlock } from '@slack/types';

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

/** `intro` comes first (e.g. "I don't know `/work frobnicate`."). */
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
