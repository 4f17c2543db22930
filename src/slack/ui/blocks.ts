/**
 * The small Block Kit pieces every message and view uses, within Slack's limits: a mrkdwn
 * section or context line holds at most 3000 characters, and long lists are packed into as
 * few sections as fit.
 */
import type { KnownBlock } from '@slack/types';
import { cut } from '../format/text.js';

/** Block Kit's limit for a section's or a context element's text. */
export const SECTION_TEXT = 3000;

/** Most sections a packed list uses; the rest is summarised ("…and 12 more"). */
const MAX_SECTIONS = 45;

export function section(text: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: cut(text, SECTION_TEXT) } };
}

export function context(text: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: cut(text, SECTION_TEXT) }] };
}

/** `title` then `items`, one a line, in as few sections of at most 3000 characters as fit. */
export function packed(title: string, items: readonly string[]): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  let current = title;
  let shown = 0;
  for (const raw of items) {
    const item = cut(raw, SECTION_TEXT - 10);
    if (current.length + 1 + item.length > SECTION_TEXT) {
      if (blocks.length + 1 >= MAX_SECTIONS) break;
      blocks.push(section(current));
      current = item;
    } else {
      current = current ? `${current}\n${item}` : item;
    }
    shown++;
  }
  if (current) blocks.push(section(current));
  if (shown < items.length) blocks.push(context(`…and ${items.length - shown} more.`));
  return blocks;
}
