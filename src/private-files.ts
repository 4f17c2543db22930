/**
 * Files only Worklink's own user may read: DATA_DIR holds API keys (encrypted), e-mails,
 * links and task data, so the directory is created 0700 and every SQLite file 0600. SQLite
 * gives a database's -wal and -shm files the mode of the database file, so creating that
 * file 0600 before SQLite opens it covers all three; chmod also tightens files left by older
 * versions (created 0644 under the usual umask).
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates `dir` (and missing parents) 0700; a directory created here is tightened past the umask. */
export function makePrivateDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) chmodSync(dir, 0o700);
}

/** Before opening a SQLite file: its directory exists, the file exists and is 0600. */
export function preparePrivateDatabase(path: string): void {
  if (path === ':memory:' || path === '') return;
  makePrivateDir(dirname(path));
  closeSync(openSync(path, 'a', 0o600));
  restrictDatabaseFiles(path);
}

/** The database and its -wal/-shm files, where they exist, become 0600. */
export function restrictDatabaseFiles(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}
