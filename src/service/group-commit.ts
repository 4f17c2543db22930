import { type Db, rolledBack, sql, transact, writeLockReleased, writeLockTaken } from './db.js';

/**
 * Group commit: the writes that arrive in one turn of the event loop are queued, then run
 * together when the turn ends (setImmediate) in one SQLite transaction, committed once. A
 * commit writes every page the transaction changed to the WAL, two system calls a page, and
 * a create task changes about ten; committing 25 creates at once writes the shared pages (the
 * tasks table, its indexes' tails, the project's counters, the outbox) once instead of 25
 * times. Running the queued writes back to back, after the turn's HTTP parsing rather than
 * between it, also keeps SQLite's code and pages hot (a create cost ~20 % less CPU than when
 * each ran as its request arrived, bench/service.ts), and the write lock is held only while
 * they run.
 *
 * Each write runs in a savepoint of its own (better-sqlite3 nests `db.transaction` that
 * way), so one that throws leaves no trace and the others go on; its `fail` hears at once. No
 * answer of a write leaves before the commit, and a read waits for it too while writes are
 * queued or running (so it never sees uncommitted writes and the caches keep only committed
 * state, and a read after a write sees it); when the commit fails, the writes' answers fail
 * too (a 500), as a write failing on its own would.
 */
interface QueuedWrite {
  /** Runs the write; returns what sends its answer, once committed. */
  run(): () => void;
  fail(error: unknown): void;
}

/** What sends an answer once the commit is over, and what hears it failed instead. */
interface Answering {
  answer(): void;
  fail(error: unknown): void;
}

export class GroupCommit {
  private queued: QueuedWrite[] = [];
  private waiting: Answering[] = [];
  private eventsRecorded = false;

  constructor(
    private readonly db: Db,
    /** Called after a commit that holds an event (wakes the delivery worker). */
    private readonly onEvents?: () => void,
  ) {}

  /** True while writes wait for their turn's commit. */
  get isPending(): boolean {
    return this.queued.length > 0;
  }

  /**
   * Queues `run` for the turn's shared transaction. `done` gets its result after the commit;
   * `fail` gets what it throws (at once) or the commit's failure.
   */
  write<T>(run: () => T, done: (result: T) => void, fail: (error: unknown) => void): void {
    if (this.queued.length === 0) setImmediate(() => this.runQueued());
    this.queued.push({
      run: () => {
        const result = run();
        return () => done(result);
      },
      fail,
    });
  }

  /** Says that the write running now recorded an event (delivered after the commit). */
  eventRecorded(): void {
    this.eventsRecorded = true;
  }

  /**
   * Runs `answer` now when no write is queued, else after the commit; `fail` gets a failed
   * commit or what `answer` throws then.
   */
  whenCommitted(answer: () => void, fail: (error: unknown) => void): void {
    if (this.queued.length === 0) {
      answer();
      return;
    }
    this.waiting.push({ answer, fail });
  }

  private begin(): void {
    sql(this.db, 'BEGIN IMMEDIATE').run();
    writeLockTaken(this.db);
  }

  private runQueued(): void {
    const batch = this.queued;
    const waiting = this.waiting;
    this.queued = [];
    this.waiting = [];
    // Someone else's transaction (a caller on the same connection): nest in it, as its
    // owner commits.
    const own = !this.db.inTransaction;
    const succeeded: Answering[] = [];
    let failure: unknown;
    try {
      if (own) this.begin();
      for (const write of batch) {
        // SQLite rolls a transaction back by itself after some errors (disk full, I/O):
        // what was written in it is lost, so those answers fail, and the rest start anew.
        if (own && !this.db.inTransaction) {
          for (const s of succeeded.splice(0)) s.fail(rolledBackError());
          rolledBack(this.db);
          this.begin();
        }
        try {
          succeeded.push({ answer: transact(this.db, write.run), fail: write.fail });
        } catch (e) {
          write.fail(e);
        }
      }
      if (own) {
        if (!this.db.inTransaction) throw rolledBackError();
        sql(this.db, 'COMMIT').run();
      }
    } catch (e) {
      failure = e;
      if (own && this.db.inTransaction) sql(this.db, 'ROLLBACK').run();
      // Nothing of the shared transaction was kept: caches filled inside it drop what they read.
      rolledBack(this.db);
    } finally {
      if (own) writeLockReleased(this.db);
    }
    const events = this.eventsRecorded;
    this.eventsRecorded = false;
    // The writes' answers first, then the reads that waited for them.
    for (const waiter of [...succeeded, ...waiting]) {
      if (failure !== undefined) {
        waiter.fail(failure);
        continue;
      }
      // One answer that throws must not keep the others from being sent.
      try {
        waiter.answer();
      } catch (e) {
        waiter.fail(e);
      }
    }
    if (events && failure === undefined) this.onEvents?.();
  }
}

function rolledBackError(): Error {
  return new Error('the shared transaction was rolled back');
}
