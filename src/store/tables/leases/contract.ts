/**
 * leases: periodic work that only one instance should do at a time, when several instances
 * share one database — a watched project's look (src/sync/watcher.ts), a team's digest look
 * (src/slack/digest/scheduler.ts). Each piece of work is a key with the moment it is
 * next due and a lease: an instance takes the due keys (stamping `claimed_by` and
 * `lease_until`), does the work, and finishes it with the next due time. An instance that
 * dies holding a lease loses it when it runs out; the work is still due, so another instance
 * takes it then. Outbox rows have their own lease columns (src/store/tables/outbox/).
 */

export interface TakenLease {
  key: string;
  /** The instance that held it before (undefined for work never done): its caches may be stale. */
  previousHolder?: string;
}

export interface LeaseClaim {
  taken: TakenLease[];
  /** Keys not taken: not due yet, or held by another instance; not before `until` then. */
  busy: { key: string; until: number }[];
}

export interface LeasesStore {
  /**
   * Takes each key that is due (a key never seen is due) and not held by a live lease, for
   * `leaseMs`, as `holder`.
   */
  claim(keys: readonly string[], holder: string, now: number, leaseMs: number): Promise<LeaseClaim>;
  /**
   * The holder is done: the work is next due at `nextAt` and the lease ends. False when the
   * lease was no longer this holder's (it ran out and another instance took the work).
   */
  finish(key: string, holder: string, nextAt: number): Promise<boolean>;
}
