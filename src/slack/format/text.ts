/**
 * Text helpers for everything Worklink writes to or reads from Slack: mrkdwn escaping (a task
 * named "R&D <beta>" must show as written), Block Kit length limits, plurals, and text typed
 * in Slack made plain.
 */

/**
 * Lookalikes for mrkdwn's formatting marks. Slack's mrkdwn has no escape character, so a
 * name like `*Draft* v2` or `_tmp_` would turn bold or italic half-way through a sentence;
 * each mark is shown by a character that looks the same and formats nothing.
 */
const MARK_LOOKALIKE: Record<string, string> = {
  '*': '\u2217', // ∗ ASTERISK OPERATOR
  _: '\u02cd', // ˍ MODIFIER LETTER LOW MACRON
  '~': '\u223c', // ∼ TILDE OPERATOR
  '`': '\u02cb', // ˋ MODIFIER LETTER GRAVE ACCENT
};

/** Web addresses keep their marks (`https://x.example/a_b` must still lead there). */
const URL_PART = /(https?:\/\/[^\s<>|]+)/;

/**
 * THE way service and user text goes into mrkdwn, everywhere (blocks and `text` fallbacks
 * alike; docs/design.md, "Text into Slack"): `&`, `<` and `>` escaped, so nothing becomes a
 * mention, link or `<!channel>`; `*`, `~` and backticks shown by lookalikes, so nothing
 * formats; `_` likewise, except inside a word (`snake_case`, `first_last@example.com`),
 * where Slack does not format it. Plain_text fields need none of this.
 */
export function esc(text: string): string {
  return text
    .split(URL_PART)
    .map((part, i) => (i % 2 === 1 ? part : neutralise(part)))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function neutralise(text: string): string {
  return text.replace(/[*~`]|_/g, (mark, at: number) => {
    if (
      mark === '_' &&
      /[\p{L}\p{N}]/u.test(text[at - 1] ?? '') &&
      /[\p{L}\p{N}]/u.test(text[at + 1] ?? '')
    ) {
      return mark;
    }
    return MARK_LOOKALIKE[mark] ?? mark;
  });
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
