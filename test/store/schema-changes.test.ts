/** Named schema changes (src/store/schema/): applied once each, on both engines, in id order. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../src/store/migrations.js';
import { openPgDb, type PgDb } from '../../src/store/pg/db.js';
import { migratePg, pgMigrations } from '../../src/store/pg/migrations.js';
import type { SchemaChange } from '../../src/store/schema/schema-change.js';
import { usePostgres } from '../support/postgres.js';
import { engineWanted } from '../support/store-engines.js';

const a: SchemaChange = {
  id: '2026-11-24-a',
  sqlite: 'CREATE TABLE a (x TEXT) STRICT;',
  pg: 'CREATE TABLE a (x TEXT);',
};
const b: SchemaChange = {
  id: '2026-11-25-b',
  sqlite: 'ALTER TABLE a ADD COLUMN y INTEGER;',
  pg: 'ALTER TABLE a ADD COLUMN y BIGINT;',
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function sqliteFile(): Database.Database {
  const dir = mkdtempSync(join(tmpdir(), 'wl-schema-'));
  dirs.push(dir);
  return new Database(join(dir, 'w.db'));
}

describe.runIf(engineWanted('SQLite'))('named schema changes on SQLite', () => {
  it('apply in id order whatever the list order, once each across re-opens', () => {
    const db = sqliteFile();
    migrate(db, migrations, [b, a]);
    const cols = db.prepare<[], { name: string }>('PRAGMA table_info(a)').all();
    expect(cols.map((c) => c.name)).toEqual(['x', 'y']);
    migrate(db, migrations, [a, b]);
    expect(db.prepare('SELECT count(*) AS n FROM schema_changes').get()).toEqual({ n: 2 });
    db.close();
  });

  it('refuse a database that holds a change this code does not know', () => {
    const db = sqliteFile();
    migrate(db, migrations, [a, b]);
    expect(() => migrate(db, migrations, [a])).toThrow(/2026-11-25-b.*upgrade Worklink/);
    db.close();
  });

  it('refuse two changes with one id, applying nothing', () => {
    const db = sqliteFile();
    expect(() => migrate(db, migrations, [a, { ...b, id: a.id }])).toThrow(/share the id/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'a'").get()).toBeUndefined();
    db.close();
  });
});

describe.runIf(engineWanted('PostgreSQL'))('named schema changes on PostgreSQL', () => {
  const pg = usePostgres();
  const opened: PgDb[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  it('apply once each, in id order, after the numbered list', async () => {
    const db = openPgDb(await pg.freshDatabase());
    opened.push(db);
    await migratePg(db, pgMigrations, [b, a]);
    await migratePg(db, pgMigrations, [a, b]);
    const cols = await db.rows<{ c: string }>(
      "SELECT column_name AS c FROM information_schema.columns WHERE table_name = 'a' ORDER BY ordinal_position",
    );
    expect(cols.map((r) => r.c)).toEqual(['x', 'y']);
    await expect(migratePg(db, pgMigrations, [a])).rejects.toThrow(/upgrade Worklink/);
  });
});
