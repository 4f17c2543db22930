/**
 * Text helpers for everything Worklink writes to or reads from Slack: mrkdwn escaping (a task
 * named "R&D <beta>" must show as written), Block Kit length limits, plurals, and text typed
 * in Slack made plain.
 */

/** Escapes the three characters Slack's mrkdwn treats as control characters. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts `text` to `max` characters, ending in "…" when cut (Block Kit has hard limits). */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

/** "1 task", "3 tasks". */
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : many}`;
}

/** "a", "a and b", "a, b and c". */
export function listing(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * A Slack message's mrkdwn as plain text: links show their label, mentions their id,
 * entities decoded. Used for task names and descriptions made from messages.
 */
export function plainText(mrkdwn: string): string {
  const plain = mrkdwn
    .replace(/<(?:https?|mailto):[^|>]*\|([^>]*)>/g, '$1')
    .replace(/<((?:https?|mailto):[^>]*)>/g, '$1')
    .replace(/<@([UW][A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, name?: string) =>
      name ? `@${name}` : `@${id}`,
    )
    .replace(/<#([CG][A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, name?: string) =>
      name ? `#${name}` : `#${id}`,
    )
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, '@$1');
  return decodeSlackEntities(plain);
}

/**
 * Slack sends `&`, `<` and `>` typed by a person as `&amp;`, `&lt;` and `&gt;` (its own
 * markup, such as `<@U123>`, stays literal). Decode typed text before it reaches the service.
 */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
