/**
 * The store's two engines for tests that must hold on both: SQLite files in a temp DATA_DIR,
 * and PostgreSQL on a real server (one per test file, test/support/postgres.ts) with a new
 * database per test. Everything opened in a test is closed and removed after it.
 *
 *   const engines = storeEngines();
 *   describe.each(engines)('$name', (engine) => {
 *     it('…', async () => { const store = await (await engine.fresh()).open(); … });
 *   });
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createSecretBox } from '../../src/store/crypto.js';
import { openStore, type Store } from '../../src/store/index.js';
import { openPgStore, pgDatabase } from '../../src/store/pg/index.js';
import { usePostgres } from './postgres.js';
import { sqliteHandle } from './sqlite-handle.js';

export type EngineName = 'SQLite' | 'PostgreSQL';

/**
 * Whether this run tests an engine: `WORKLINK_TEST_ENGINES` is `sqlite`, `pg` or unset (both).
 * The test tiers (vitest.config.ts) set it: the fast tier runs the SQLite halves, the full
 * tier's `slow` project the PostgreSQL halves, so `npm test` runs every test once.
 */
export function engineWanted(name: EngineName): boolean {
  const only = process.env.WORKLINK_TEST_ENGINES;
  if (!only) return true;
  return only === (name === 'SQLite' ? 'sqlite' : 'pg');
}

/** One empty database of an engine, opened as often as a test likes (restarts). */
export interface TestDatabase {
  /** Opens a store on it (again); `secretsKey` defaults to one key per database. */
  open(options?: { secretsKey?: Buffer }): Promise<Store>;
}

export interface StoreEngine {
  name: EngineName;
  /** A new empty database. */
  fresh(): Promise<TestDatabase>;
  /** Runs SQL (no parameters) on the store's database: a test's way around the Store. */
  exec(store: Store, sql: string): Promise<void>;
  /** Whether `text` appears anywhere in what the database holds (a secret in the clear). */
  holdsInClear(store: Store, text: string): Promise<boolean>;
}

/** Both engines, with the hooks that clean up after each test (call at the file's top). */
export function storeEngines(): StoreEngine[] {
  const postgres = usePostgres();
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const track = (store: Store) => {
    cleanups.push(() => store.close());
    return store;
  };

  const sqlite: StoreEngine = {
    name: 'SQLite',
    async fresh() {
      const dir = mkdtempSync(join(tmpdir(), 'worklink-store-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const key = randomBytes(32);
      return { open: async (o = {}) => track(openStore(dir, { secretsKey: o.secretsKey ?? key })) };
    },
    async exec(store, sql) {
      sqliteHandle(store).exec(sql);
    },
    async holdsInClear(store, text) {
      const db = sqliteHandle(store);
      db.pragma('wal_checkpoint(TRUNCATE)');
      return db.serialize().includes(Buffer.from(text));
    },
  };

  const pg: StoreEngine = {
    name: 'PostgreSQL',
    async fresh() {
      const url = await postgres.freshDatabase();
      const dataDir = mkdtempSync(join(tmpdir(), 'worklink-store-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const key = randomBytes(32);
      return {
        open: async (o = {}) =>
          track(
            await openPgStore({
              url,
              dataDir,
              secrets: createSecretBox(o.secretsKey ?? key),
            }),
          ),
      };
    },
    async exec(store, sql) {
      await pgHandle(store).run(sql);
    },
    async holdsInClear(store, text) {
      // Every row of every table as text (bytea as hex), searched for the text and its hex.
      const db = pgHandle(store);
      const tables = await db.rows<{ t: string }>(
        "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'",
      );
      const hex = Buffer.from(text).toString('hex');
      for (const { t } of tables) {
        const rows = await db.rows<{ r: string }>(`SELECT x::text AS r FROM ${t} x`);
        if (rows.some(({ r }) => r.includes(text) || r.includes(hex))) return true;
      }
      return false;
    },
  };
  return [sqlite, pg].filter((e) => engineWanted(e.name));
}

function pgHandle(store: Store) {
  const db = pgDatabase(store);
  if (!db) throw new Error('This needs the PostgreSQL store; the store runs on another engine.');
  return db;
}
