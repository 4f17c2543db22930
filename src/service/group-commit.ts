import { type Db, rolledBack, sql, transact } from './db.js';

/**
 * Group commit: the writes that arrive in one turn of the event loop share one SQLite
 * transaction, committed once when the turn ends (setImmediate). A commit writes every page
 * the transaction changed to the WAL, two system calls a page, and a create task changes
 * about 19; committing 50 creates at once writes the shared pages (the tasks table, its
 * indexes' tails, the project's counters, the outbox) once instead of 50 times. This was
 * most of a create's cost (bench/service.ts).
 *
 * Each write runs in a savepoint of its own (better-sqlite3 nests `db.transaction` that
 * way), so one that throws leaves no trace and the others go on. No answer leaves before
 * the commit: while a transaction is open, a write's answer waits for it, and so does every
 * read (run after it, so it never sees uncommitted writes and the caches keep only committed
 * state); when the commit fails, the writes' answers fail too (a 500), as a write failing on
 * its own would.
 */
export class GroupCommit {
  private open = false;
  private waiting: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  private eventsRecorded = false;

  constructor(
    private readonly db: Db,
    /** Called after a commit that holds an event (wakes the delivery worker). */
    private readonly onEvents?: () => void,
  ) {}

  /** True while a shared transaction waits for its commit. */
  get isOpen(): boolean {
    return this.open;
  }

  /** Runs `write` in the turn's shared transaction; its answer waits for `whenCommitted`. */
  write<T>(write: () => T): T {
    this.begin();
    return transact(this.db, write);
  }

  /** Says that the write running now recorded an event (delivered after the commit). */
  eventRecorded(): void {
    this.eventsRecorded = true;
  }

  /**
   * Runs `answer` now when no shared transaction is open, else after its commit; `fail` gets
   * a failed commit or what `answer` throws then.
   */
  whenCommitted(answer: () => void, fail: (error: unknown) => void): void {
    if (!this.open) {
      answer();
      return;
    }
    new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }))
      .then(answer)
      .catch(fail);
  }

  private begin(): void {
    if (this.open) {
      // SQLite rolls a transaction back by itself after some errors (disk full, I/O):
      // what was written in it so far is lost, so its answers fail; the write starts anew.
      if (this.db.inTransaction) return;
      this.finish(new Error('the shared transaction was rolled back'));
    }
    // Someone else's transaction (a caller on the same connection): nest in it as before.
    if (this.db.inTransaction) return;
    sql(this.db, 'BEGIN IMMEDIATE').run();
    this.open = true;
    setImmediate(() => this.commit());
  }

  private commit(): void {
    if (!this.open) return;
    let failure: unknown;
    try {
      if (!this.db.inTransaction) throw new Error('the shared transaction was rolled back');
      sql(this.db, 'COMMIT').run();
    } catch (e) {
      failure = e;
      if (this.db.inTransaction) sql(this.db, 'ROLLBACK').run();
    }
    this.finish(failure);
  }

  private finish(failure: unknown): void {
    // Nothing of the shared transaction was kept: caches filled inside it drop what they read.
    if (failure !== undefined) rolledBack(this.db);
    const waiting = this.waiting;
    const events = this.eventsRecorded;
    this.waiting = [];
    this.open = false;
    this.eventsRecorded = false;
    for (const w of waiting) {
      if (failure === undefined) w.resolve();
      else w.reject(failure);
    }
    if (events && failure === undefined) this.onEvents?.();
  }
}
