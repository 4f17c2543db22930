/**
 * Both engines' migrations describe one schema: after migrating an empty SQLite file and an
 * empty PostgreSQL database (numbered lists and named changes, src/store/schema/), the tables,
 * their columns (name, type mapped to SQLite's storage classes, NOT NULL, primary key) and
 * their indexes (columns, uniqueness) are the same. A change made to one engine only fails here.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations.js';
import { openPgDb } from '../../src/store/pg/db.js';
import { migratePg } from '../../src/store/pg/migrations.js';
import { usePostgres } from '../support/postgres.js';
import { engineWanted } from '../support/store-engines.js';

const pg = usePostgres();

/** Bookkeeping of each engine's migrations, not part of the schema. */
const BOOKKEEPING = new Set(['worklink_schema', 'schema_changes']);

/**
 * Where the engines differ on purpose, each for one reason:
 * - task names' full-text search: SQLite's FTS5 table task_index_fts (and its shadow tables)
 *   fed from the text column task_index.words, PostgreSQL's tsvector task_index.words with its
 *   index (the column is compared as text);
 * - feed_posts' insertion order: PostgreSQL's identity column seq, SQLite's rowid;
 * - lists (task_index.assignees): a PostgreSQL array, JSON text in SQLite (mapped below).
 * Besides, an SQLite index ends with the rowid implicitly: PostgreSQL's indexes that end with
 * the table's integer `id` primary key are compared without it.
 */
const SQLITE_ONLY_TABLE = /^task_index_fts/;
const PG_ONLY = new Set(['feed_posts.seq', 'task_index(words)']);

interface Shape {
  columns: string[];
  indexes: string[];
}

function sqliteShape(): Shape {
  const db = new Database(':memory:');
  try {
    migrate(db);
    const tables = db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
      )
      .all()
      .map((t) => t.name)
      .filter((t) => !BOOKKEEPING.has(t) && !SQLITE_ONLY_TABLE.test(t));
    const columns: string[] = [];
    const indexes: string[] = [];
    for (const table of tables) {
      const cols = db
        .prepare<[], { name: string; type: string; notnull: number; pk: number }>(
          `SELECT name, type, "notnull", pk FROM pragma_table_info('${table}')`,
        )
        .all();
      for (const c of cols) {
        columns.push(
          `${table}.${c.name} ${c.type.toUpperCase()}${c.notnull || c.pk ? ' NOT NULL' : ''}${c.pk ? ' PK' : ''}`,
        );
      }
      const list = db
        .prepare<[], { name: string; unique: number; origin: string; partial: number }>(
          `SELECT name, "unique", origin, partial FROM pragma_index_list('${table}')`,
        )
        .all();
      for (const ix of list) {
        if (ix.origin === 'pk') continue;
        const on = db
          .prepare<[], { name: string | null }>(
            `SELECT name FROM pragma_index_info('${ix.name}') ORDER BY seqno`,
          )
          .all()
          .map((c) => c.name ?? '(expression)');
        indexes.push(`${table}(${on.join(', ')})${ix.unique ? ' UNIQUE' : ''}`);
      }
    }
    return { columns: columns.sort(), indexes: indexes.sort() };
  } finally {
    db.close();
  }
}

/** PostgreSQL's types as SQLite's storage classes. */
function storageClass(pgType: string): string {
  if (['text', 'character varying', 'jsonb', 'json', 'uuid'].includes(pgType)) return 'TEXT';
  if (['integer', 'bigint', 'smallint', 'boolean'].includes(pgType)) return 'INTEGER';
  if (['double precision', 'real', 'numeric'].includes(pgType)) return 'REAL';
  if (pgType === 'bytea') return 'BLOB';
  if (pgType === 'ARRAY' || pgType === 'tsvector') return 'TEXT';
  return pgType;
}

async function pgShape(): Promise<Shape> {
  const db = openPgDb(await pg.freshDatabase());
  try {
    await migratePg(db);
    const cols = await db.rows<{
      t: string;
      c: string;
      type: string;
      nullable: string;
      pk: boolean;
    }>(
      `SELECT c.table_name AS t, c.column_name AS c, c.data_type AS type, c.is_nullable AS nullable,
              EXISTS (SELECT 1 FROM information_schema.table_constraints tc
                        JOIN information_schema.key_column_usage k
                          ON k.constraint_name = tc.constraint_name AND k.table_name = tc.table_name
                       WHERE tc.table_schema = 'public' AND tc.constraint_type = 'PRIMARY KEY'
                         AND tc.table_name = c.table_name AND k.column_name = c.column_name) AS pk
         FROM information_schema.columns c
        WHERE c.table_schema = 'public'`,
    );
    const columns = cols
      .filter((r) => !BOOKKEEPING.has(r.t) && !PG_ONLY.has(`${r.t}.${r.c}`))
      .map(
        (r) =>
          `${r.t}.${r.c} ${storageClass(r.type)}${r.nullable === 'NO' ? ' NOT NULL' : ''}${r.pk ? ' PK' : ''}`,
      );
    const ix = await db.rows<{ t: string; cols: string; uniq: boolean; primary: boolean }>(
      `SELECT t.relname AS t, i.indisunique AS uniq, i.indisprimary AS primary,
              (SELECT string_agg(COALESCE(a.attname, '(expression)'), ', ' ORDER BY k.n)
                 FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                 LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS cols
         FROM pg_index i
         JOIN pg_class t ON t.oid = i.indrelid
         JOIN pg_namespace s ON s.oid = t.relnamespace
        WHERE s.nspname = 'public'`,
    );
    const rowidTables = new Set(
      cols
        .filter((r) => r.c === 'id' && r.pk && storageClass(r.type) === 'INTEGER')
        .map((r) => r.t),
    );
    const indexes = ix
      .filter((r) => !BOOKKEEPING.has(r.t) && !r.primary && !PG_ONLY.has(`${r.t}(${r.cols})`))
      .map((r) => {
        const on = rowidTables.has(r.t) ? r.cols.replace(/, id$/, '') : r.cols;
        return `${r.t}(${on})${r.uniq ? ' UNIQUE' : ''}`;
      });
    return { columns: columns.sort(), indexes: indexes.sort() };
  } finally {
    await db.close();
  }
}

// Needs both engines: runs where PostgreSQL is wanted (the postgres tier; all of `npm test`).
describe.runIf(engineWanted('PostgreSQL'))('the two engines’ schemas', () => {
  it('have the same tables, columns and indexes', async () => {
    const [lite, post] = [sqliteShape(), await pgShape()];
    expect(post.columns).toEqual(lite.columns);
    expect(post.indexes).toEqual(lite.indexes);
    // The comparison looked at something: every store table is there.
    expect(lite.columns).toContain('notify_outbox.id INTEGER NOT NULL PK');
    expect(lite.indexes.length).toBeGreaterThan(5);
  });
});
