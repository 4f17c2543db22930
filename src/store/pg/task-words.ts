/**
 * The task index's words on PostgreSQL. FTS5's tokenizer (unicode61, remove_diacritics)
 * splits on anything that is not a letter or digit, folds case and drops accents; PostgreSQL's
 * own parser keeps "v1.2", "foo.bar" or "a@b.c" as one token and keeps accents. So the words
 * are made here, the same way for names and for what people type — letters and digits, lower
 * case, accents removed — and PostgreSQL indexes them with the 'simple' configuration
 * (no stemming, no stop words): "cafe" finds "Café menu", "bar" finds "foo.bar".
 */

/** A text's words, normalised: at most `max` of them. */
function normalWords(text: string, max = Number.POSITIVE_INFINITY): string[] {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .slice(0, max)
    .map((w) =>
      w
        .toLowerCase()
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .normalize('NFC'),
    )
    .filter((w) => w.length > 0);
}

/** The text to_tsvector('simple', …) indexes for a task name. */
export const nameWords = (name: string): string => normalWords(name).join(' ');

/**
 * A to_tsquery('simple', …) text from what a person typed: each word a prefix (`:*`), all of
 * them (AND) or any (OR); nothing of the input is query syntax. Undefined without a word.
 */
export function tsQuery(text: string, join: 'AND' | 'OR' = 'AND'): string | undefined {
  const words = normalWords(text, 12);
  if (words.length === 0) return undefined;
  return words.map((w) => `${w}:*`).join(join === 'AND' ? ' & ' : ' | ');
}
