/** The SQLite task index's words, filled in for rows indexed before they were stored. */
import type Database from 'better-sqlite3';
import { wordsText } from './words.js';

/**
 * Rows indexed before the words were made here (schema change 2026-11-24-task-words) get
 * them now, once: a few seconds at most for a large index, at the first start after it.
 */
export function fillWords(db: Database.Database): void {
  const empty = db.prepare<[], { rowid: number; name: string }>(
    "SELECT rowid, name FROM task_index WHERE words = '' AND name <> '' LIMIT 1000",
  );
  const set = db.prepare('UPDATE task_index SET words = ? WHERE rowid = ?');
  const batch = db.transaction((rows: { rowid: number; name: string }[]) => {
    for (const r of rows) set.run(wordsText(r.name) || ' ', r.rowid);
  });
  for (let rows = empty.all(); rows.length > 0; rows = empty.all()) batch(rows);
}
