/**
 * Opening a SQLite file, the same way for Worklink's database (src/store) and the embedded
 * service's (src/service): private file modes, WAL so readers run beside the writer (e.g.
 * `seed` while the service runs), busy_timeout so a second process (or the outbox worker)
 * waits for the write lock instead of failing at once, then the schema brought up to date.
 */
import Database from 'better-sqlite3';
import { preparePrivateDatabase, restrictDatabaseFiles } from './private-files.js';

export function openSqlite(path: string, migrate: (db: Database.Database) => void) {
  preparePrivateDatabase(path);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    restrictDatabaseFiles(path);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    migrate(db);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}
