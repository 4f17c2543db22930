/**
 * A database that is full or failing (issue 24, finding 3) is not a bug in a request: the
 * person is told plainly that Worklink cannot save right now, and the operator gets one log
 * line at error a minute (not one per request, and not at info, where LOG_LEVEL=warn would
 * hide it).
 */
import type { Logger } from '@slack/bolt';
import { errMessage } from '../error-message.js';

export const CANNOT_SAVE =
  'Worklink cannot save right now (its database is full or failing), so this was not done. Please try again later; the server’s logs say more.';

/** SQLite result codes (better-sqlite3's `code`) that mean the storage, not the request. */
const SQLITE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/;
/** PostgreSQL SQLSTATE classes: 53 insufficient resources, 58 system error; XX001/2 data corrupted. */
const PG = /^(53|58)...$|^XX00[12]$/;

export function isStorageFault(e: unknown): boolean {
  if (typeof e !== 'object' || e === null || !('code' in e)) return false;
  const code = e.code;
  return typeof code === 'string' && (SQLITE.test(code) || PG.test(code));
}

const EVERY_MS = 60_000;
let lastLoggedAt = Number.NEGATIVE_INFINITY;
let since = 0;

/** Logs a storage fault at error, at most once a minute (counting the ones in between). */
export function reportStorageFault(
  logger: Pick<Logger, 'error'>,
  e: unknown,
  now = Date.now(),
): void {
  since++;
  if (now - lastLoggedAt < EVERY_MS) return;
  const more = since > 1 ? ` (${since - 1} more since the last report)` : '';
  logger.error(
    `The database cannot be written or read (${errMessage(e)})${more}: Worklink answers what it can and refuses changes until it recovers.`,
  );
  lastLoggedAt = now;
  since = 0;
}
