/**
 * The engine-neutral transaction a unit of work runs in: the table stores, bound to one
 * transaction, and a lock. Each multi-table unit (forget-team.ts, connect.ts,
 * take-in-event.ts) is written once over it; each engine says how to run one
 * (SQLite: src/store/sqlite/one-at-a-time.ts; PostgreSQL: src/store/pg/index.ts).
 */
import type { Tables } from './tables.js';

export interface Tx extends Tables {
  /**
   * Holds a lock on the team until the transaction ends, so that two units changing one
   * team's connection take turns, also before it has one (PostgreSQL: an advisory lock).
   * SQLite runs one writer at a time anyway.
   */
  lockTeam(teamId: string): Promise<void>;
}

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export type RunInTx = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;
