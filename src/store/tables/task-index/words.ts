/**
 * The task index's one word normaliser, for both engines (issue 24, finding 8): the words of
 * a task name, and of what a person types, made the same way in JavaScript, so SQLite (FTS5)
 * and PostgreSQL (tsvector) index and search exactly the same tokens — neither engine's own
 * tokenizer or parser decides anything.
 *
 * - NFKC first: "ﬁnal" is "final", full-width "ＡＢＣ" is "abc".
 * - Case folded fully: "Straße" is "strasse", final sigma is sigma ("ΣΊΣΥΦΟΣ" is "σισυφοσ").
 * - Accents removed: "Café" is "cafe".
 * - Words are runs of letters and digits; a number with dots ("1.2.3", also inside "v1.2.3")
 *   is kept as one more token, so `1.2` finds "v1.2.3".
 */

/** One text folded: NFKC, full case folding (ß → ss, ς → σ), accents removed. */
export function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .toUpperCase()
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC');
}

/** A dotted number, or a run of letters and digits (tried in that order at each place). */
const QUERY_TOKEN = /\p{N}+(?:\.\p{N}+)+|[\p{L}\p{N}]+/gu;

const WORD = /[\p{L}\p{N}]+/gu;

const DOTTED_NUMBER = /\p{N}+(?:\.\p{N}+)+/gu;

/** The words a task name is indexed under (each once, in order). */
export function indexWords(name: string): string[] {
  const folded = foldText(name);
  const words = [...(folded.match(WORD) ?? []), ...(folded.match(DOTTED_NUMBER) ?? [])];
  return [...new Set(words)];
}

/** The words of what a person typed, at most `max`: each is searched as a prefix. */
export function queryWords(text: string, max = 12): string[] {
  return [...new Set(foldText(text).match(QUERY_TOKEN) ?? [])].slice(0, max);
}

/** The one text both engines store for a name: its words, space-separated. */
export const wordsText = (name: string): string => indexWords(name).join(' ');
