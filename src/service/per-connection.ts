import type { Db } from './db.js';

/**
 * One `T` per database connection, made at first use (the service's caches: each holds what
 * its connection read, checked against other connections' commits by `PRAGMA data_version`).
 * Kept in a WeakMap, so a closed connection's cache goes with it.
 */
export function perConnection<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
