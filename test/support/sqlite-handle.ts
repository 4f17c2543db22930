/**
 * The better-sqlite3 connection behind a store the tests (or benchmarks) opened: raw SQL and
 * pragmas on the SQLite file. The Store interface has no handle (it is engine-neutral), so
 * this is the engine-specific way in; it fails clearly on another engine.
 */
import type Database from 'better-sqlite3';
import { type Store, sqliteDatabase } from '../../src/store/index.js';

export function sqliteHandle(store: Store): Database.Database {
  const db = sqliteDatabase(store);
  if (!db) throw new Error('This needs the SQLite store; the store runs on another engine.');
  return db;
}
