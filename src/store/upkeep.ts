/**
 * Keeping the SQLite file healthy while Worklink runs (issue 24, findings 3 and 9).
 *
 * - The WAL is checkpointed on a schedule (TRUNCATE: the file goes back to empty when no
 *   reader holds it) and its size after a checkpoint is capped (`journal_size_limit`).
 *   SQLite's own checkpoint comes only after 1,000 pages (4 MiB) of writes: an idle
 *   Worklink's small writes (leases, looks) grew the WAL ~210 KB a minute until then, and on
 *   a small volume a WAL that refills freed space stalls delivery.
 * - The file's identity (device and inode) is checked periodically: a worklink.db deleted or
 *   replaced while running would otherwise be written on a deleted inode until the next
 *   start found an empty database. Then `onLost` gets one sentence (the process stops).
 *
 * PostgreSQL stores need none of this (a no-op).
 */
import { statSync } from 'node:fs';
import type { Logger } from '@slack/bolt';
import { errMessage } from '../error-message.js';
import type { Store } from './contract.js';
import { sqliteDatabase } from './sqlite/open.js';

/** The WAL file may stay at most this large after a checkpoint. */
export const WAL_LIMIT_BYTES = 1024 * 1024;

export interface UpkeepOptions {
  store: Store;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** The database file was deleted or replaced: one sentence; the process should stop. */
  onLost(sentence: string): void;
  /** Default: every 30 s. */
  checkpointMs?: number;
  /** Default: every 5 s. */
  identityMs?: number;
}

export class DatabaseUpkeep {
  readonly name = 'database upkeep';
  private timers: NodeJS.Timeout[] = [];
  private identity: { dev: number; ino: number } | undefined;
  private lost = false;

  constructor(private readonly o: UpkeepOptions) {}

  start(): void {
    const db = sqliteDatabase(this.o.store);
    if (!db || this.timers.length > 0) return;
    db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
    this.identity = this.stat(db.name);
    const every = (ms: number, run: () => void) => {
      const t = setInterval(run, ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.o.checkpointMs ?? 30_000, () => this.checkpoint());
    every(this.o.identityMs ?? 5_000, () => this.checkIdentity());
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /** One TRUNCATE checkpoint; a busy or failing one is tried again at the next tick. */
  checkpoint(): void {
    const db = sqliteDatabase(this.o.store);
    if (!db?.open || this.lost) return;
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (e) {
      this.o.logger.warn(
        `The database's write-ahead log could not be checkpointed: ${errMessage(e)}`,
      );
    }
  }

  /** Stops (through onLost) when the file at the database's path is not the one opened. */
  checkIdentity(): void {
    const db = sqliteDatabase(this.o.store);
    if (!db?.open || this.lost || !this.identity) return;
    const now = this.stat(db.name);
    const same = now && now.dev === this.identity.dev && now.ino === this.identity.ino;
    if (same) return;
    this.lost = true;
    this.stop();
    const what = now ? 'was replaced by another file' : 'was deleted';
    const sentence = `The database file ${db.name} ${what} while Worklink was running; Worklink stops so that nothing more is written where no one will read it (restore the file, or start again to begin with an empty database).`;
    this.o.logger.error(sentence);
    this.o.onLost(sentence);
  }

  private stat(path: string): { dev: number; ino: number } | undefined {
    try {
      const s = statSync(path);
      return { dev: s.dev, ino: s.ino };
    } catch {
      return undefined;
    }
  }
}
