/**
 * The task index's words on PostgreSQL, made by the one normaliser both engines share
 * (src/store/tables/task-index/words.ts) and handed to PostgreSQL as they are: the tsvector is built from the
 * words (`array_to_tsvector`) and the query is a tsquery literal, so PostgreSQL's parser never
 * re-reads them ("v1.2", "foo.bar" or "Straße" mean what they mean on SQLite too).
 */
import { queryWords, wordsText } from './words.js';

/** The words of a task name, space-separated: `words_vector($n)` makes them a tsvector. */
export const nameWords = (name: string): string => wordsText(name);

/** SQL for the tsvector of a space-separated words text (no parsing, no stemming). */
export const wordsVector = (param: string): string =>
  `array_to_tsvector(array_remove(string_to_array(${param}, ' '), ''))`;

/**
 * A tsquery literal (`'word':* & 'other':*`) from what a person typed: each word a prefix, all
 * of them (AND) or any (OR). Words are letters, digits and dots only, so quoting them is
 * enough; nothing of the input is query syntax. Undefined without a word.
 */
export function tsQuery(text: string, join: 'AND' | 'OR' = 'AND'): string | undefined {
  const words = queryWords(text);
  if (words.length === 0) return undefined;
  return words.map((w) => `'${w.replace(/'/g, "''")}':*`).join(join === 'AND' ? ' & ' : ' | ');
}
