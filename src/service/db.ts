import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite.js';
import { migrations } from './migrations.js';

export type Db = Database.Database;
type Statement = Database.Statement<unknown[], unknown>;

/** Opens (creating if needed) the service database and brings its schema up to date. */
export function openDatabase(path: string): Db {
  const db = openSqlite(path, migrate);
  // Savepoint journals in memory: every write runs in a savepoint of a shared transaction
  // (group-commit.ts), and SQLite's default spills those journals past 64 KiB to a temporary
  // file that is never truncated while the transaction lasts (two system calls per page).
  db.pragma('temp_store = MEMORY');
  return db;
}

/** Applies the migrations not yet applied, each in its own transaction. */
export function migrate(db: Db): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > migrations.length) {
    throw new Error(
      `The database schema (version ${current}) is newer than this program (${migrations.length}).`,
    );
  }
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}

const cache = new WeakMap<Db, Map<string, Statement>>();

/** A prepared statement, compiled once per database and reused (the hot paths rely on it). */
export function sql<Row = unknown>(db: Db, text: string): TypedStatement<Row> {
  let byText = cache.get(db);
  if (!byText) {
    byText = new Map();
    cache.set(db, byText);
  }
  let stmt = byText.get(text);
  if (!stmt) {
    stmt = db.prepare(text);
    byText.set(text, stmt);
  }
  return stmt as unknown as TypedStatement<Row>;
}

const runners = new WeakMap<Db, (write: () => void) => void>();
/** The databases a `transact` is running on now. */
const inTransact = new WeakSet<Db>();

/**
 * Runs `fn` in a transaction, or in a savepoint when one is open (better-sqlite3's
 * `db.transaction`). One transaction function per database, reused: `db.transaction(fn)`
 * builds four wrappers each time it is called, which cost a create task about 9 µs.
 *
 * Called inside another `transact`, `fn` joins it rather than opening a savepoint of its
 * own (two statements less per create task, which the group commit already wraps): what it
 * throws goes through the outer one, which rolls back all of it. So no code may catch an
 * error from a nested `transact` and carry on writing in the outer one.
 */
export function transact<T>(db: Db, fn: () => T): T {
  if (inTransact.has(db)) return fn();
  let run = runners.get(db);
  if (!run) {
    run = db.transaction((write: () => void) => write());
    runners.set(db, run);
  }
  // Assigned by the time `run` returns: it returns only after `fn` did (or throws with it).
  let result!: T;
  inTransact.add(db);
  try {
    run(() => {
      result = fn();
    });
  } catch (e) {
    // better-sqlite3 has rolled the transaction (or savepoint) back.
    rolledBack(db);
    throw e;
  } finally {
    inTransact.delete(db);
  }
  return result;
}

const rollbackListeners = new WeakMap<Db, Set<() => void>>();

/**
 * Calls `listener` whenever a transaction of this connection is rolled back: a cache that
 * keeps rows read inside a transaction (reference-cache.ts) may then hold rows that never
 * were, and drops them.
 */
export function onRollback(db: Db, listener: () => void): void {
  let listeners = rollbackListeners.get(db);
  if (!listeners) {
    listeners = new Set();
    rollbackListeners.set(db, listeners);
  }
  listeners.add(listener);
}

/** Tells the listeners that a transaction (or savepoint) of this connection was rolled back. */
export function rolledBack(db: Db): void {
  for (const listener of rollbackListeners.get(db) ?? []) listener();
}

/** SQLite's `PRAGMA data_version`: changes when another connection commits (-1 if unread). */
export function dataVersion(db: Db): number {
  return versionWhileLocked.get(db) ?? readDataVersion(db);
}

function readDataVersion(db: Db): number {
  return sql<{ data_version: number }>(db, 'PRAGMA data_version').get()?.data_version ?? -1;
}

/** The data_version read when this connection took the write lock, until it lets it go. */
const versionWhileLocked = new WeakMap<Db, number>();

/**
 * Says that this connection holds the write lock (`BEGIN IMMEDIATE`, group-commit.ts) until
 * `writeLockReleased`: no other connection can commit meanwhile, so data_version is read once
 * here and not once per operation of the batch (each create checks it for its caches).
 */
export function writeLockTaken(db: Db): void {
  versionWhileLocked.set(db, readDataVersion(db));
}

/** The transaction `writeLockTaken` began is over (committed or rolled back). */
export function writeLockReleased(db: Db): void {
  versionWhileLocked.delete(db);
}

/** The parts of a better-sqlite3 statement we use, typed by the row they return. */
export interface TypedStatement<Row> {
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  run(...params: unknown[]): Database.RunResult;
}
