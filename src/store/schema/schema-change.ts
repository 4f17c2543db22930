/**
 * Schema changes after the numbered lists (src/store/migrations.ts for SQLite, 1–12, and
 * src/store/pg/migrations.ts for PostgreSQL, 1–5) are NAMED, so that changes written on
 * parallel branches never collide: each is one file in this folder, named
 * `<yyyy-mm-dd>-<what>.ts`, holding both engines' SQL side by side, and listed once in
 * `./changes.ts`. They are applied in order of id after the numbered list, each in its own
 * transaction with its id recorded in `schema_changes`; a database that has an id this code
 * does not know is newer than this code, and start-up stops with one sentence.
 *
 * APPEND ONLY: a change that has shipped is never edited; write a new one.
 */
export interface SchemaChange {
  /** The file's name without `.ts`, e.g. `2026-11-24-personal-keys`: unique and sortable. */
  id: string;
  /** SQLite SQL (STRICT tables, epoch ms as INTEGER). */
  sqlite: string;
  /** The same change in PostgreSQL's types (BIGINT epoch ms, BOOLEAN, BYTEA, TEXT[]). */
  pg: string;
}

/** The changes in the order they apply (by id), refusing a duplicate id. */
export function ordered(changes: readonly SchemaChange[]): SchemaChange[] {
  const sorted = [...changes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.id === sorted[i - 1]!.id) {
      throw new Error(`Two schema changes share the id ${sorted[i]!.id}.`);
    }
  }
  return sorted;
}

/** Ids recorded in the database that this code does not know (then the database is newer). */
export function unknownIds(applied: Iterable<string>, changes: readonly SchemaChange[]): string[] {
  const known = new Set(changes.map((c) => c.id));
  return [...applied].filter((id) => !known.has(id));
}

export function newerThanCode(ids: string[]): Error {
  return new Error(
    `The database has schema changes this Worklink does not know (${ids.join(', ')}); upgrade Worklink.`,
  );
}
