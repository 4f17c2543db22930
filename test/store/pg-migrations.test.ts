/** The PostgreSQL schema on a real server: applied once, under a lock instances can share. */
import { afterEach, describe, expect, it } from 'vitest';
import { openPgDb, type PgDb } from '../../src/store/pg/db.js';
import { migratePg, pgMigrations, pgSchemaVersion } from '../../src/store/pg/migrations.js';
import { usePostgres } from '../support/postgres.js';

const pg = usePostgres();
const opened: PgDb[] = [];
const open = (url: string) => {
  const db = openPgDb(url);
  opened.push(db);
  return db;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

/** Every column of every table, as a comparable text. */
async function schema(db: PgDb): Promise<string[]> {
  const rows = await db.rows<{ c: string }>(
    `SELECT table_name || '.' || column_name || ' ' || data_type AS c
       FROM information_schema.columns WHERE table_schema = 'public'
      ORDER BY table_name, ordinal_position`,
  );
  return rows.map((r) => r.c);
}

describe('PostgreSQL migrations', () => {
  it('bring an empty database to the latest version; a second run changes nothing', async () => {
    const db = open(await pg.freshDatabase());
    expect(await pgSchemaVersion(db)).toBe(0);
    await migratePg(db);
    expect(await pgSchemaVersion(db)).toBe(pgMigrations.length);
    const first = await schema(db);
    expect(first).toContain('task_index.words tsvector');
    expect(first).toContain('notify_outbox.next_attempt_at bigint');
    expect(first).toContain('channel_feeds.sync boolean');
    expect(first).toContain('feed_posts.ts text');
    await migratePg(db);
    expect(await pgSchemaVersion(db)).toBe(pgMigrations.length);
    expect(await schema(db)).toEqual(first);
  });

  it('run appended migrations once, in order, and refuse a database newer than the code', async () => {
    const db = open(await pg.freshDatabase());
    const list = [...pgMigrations, 'CREATE TABLE extra (x INTEGER)'];
    await migratePg(db, list);
    await migratePg(db, list);
    expect(await pgSchemaVersion(db)).toBe(list.length);
    await expect(migratePg(db)).rejects.toThrow(/newer than this Worklink/);
  });

  it('let several instances migrate one empty database at once: all succeed, once', async () => {
    const url = await pg.freshDatabase();
    // Each instance its own pool, as separate processes would have.
    const dbs = [open(url), open(url), open(url), open(url)];
    await Promise.all(dbs.map((db) => migratePg(db)));
    expect(await pgSchemaVersion(dbs[0]!)).toBe(pgMigrations.length);
  });

  it('roll a failing migration back whole, leaving the version where it was', async () => {
    const db = open(await pg.freshDatabase());
    const list = [...pgMigrations, 'CREATE TABLE half (x INTEGER); SELECT no_such_function()'];
    await expect(migratePg(db, list)).rejects.toThrow(/no_such_function/);
    expect(await pgSchemaVersion(db)).toBe(pgMigrations.length);
    expect(await db.row("SELECT to_regclass('half')::text AS t")).toEqual({ t: null });
    // The lock was let go: another run proceeds.
    await migratePg(db);
  });
});
