/**
 * Units of work on SQLite. A single store call runs whole in its caller's turn (better-sqlite3
 * is synchronous), so nothing interleaves with it. A unit of work (src/store/units/) is
 * written once for both engines, as async code: between its awaits other code runs, and on
 * the one connection another caller's statement would land inside the unit's open
 * transaction (and be rolled back with it should the unit fail). So while a unit runs, every
 * other store call waits for it to end; the unit's own calls go through its `Tx`, at once.
 * Outside a unit, calls run at once, as before. A unit does no I/O between its store calls,
 * so the wait is a few microtasks.
 */
import type Database from 'better-sqlite3';
import type { RunInTx, Tx } from '../units/tx.js';
import type { Caller } from './async-over-sync.js';

export class OneAtATime {
  /** Settles when the unit of work in progress ends; undefined when none is. */
  private current: Promise<void> | undefined;

  constructor(private readonly db: Database.Database) {}

  /** A store call outside any unit: at once, or after the unit in progress. */
  readonly call: Caller = (call) => {
    if (this.current !== undefined) return this.current.then(() => this.call(call));
    try {
      return Promise.resolve(call());
    } catch (e) {
      return Promise.reject(e);
    }
  };

  /** Runs units of work over `tx` (the table stores called at once), each alone. */
  runner(tx: Tx): RunInTx {
    return async (work) => {
      while (this.current !== undefined) await this.current;
      let done = () => {};
      this.current = new Promise<void>((resolve) => {
        done = resolve;
      });
      try {
        // IMMEDIATE: the write lock is taken now, not at the first write (other processes).
        this.db.exec('BEGIN IMMEDIATE');
        const result = await work(tx);
        this.db.exec('COMMIT');
        return result;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      } finally {
        this.current = undefined;
        done();
      }
    };
  }
}
