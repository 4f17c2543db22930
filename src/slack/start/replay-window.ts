/**
 * The replay window of the HTTP front (http-guard.ts): the signed requests and event ids
 * taken in lately, kept in memory so that a request's way to `ack()` costs no database write.
 *
 * - One instance (SQLite: one file per instance): memory decides at once; what it took in is
 *   written to the store behind the request (batched, off the ack path), and read back at
 *   start, so a restart inside the window still knows what it took in.
 * - Several instances (`store.shared`, PostgreSQL): memory turns away this instance's own
 *   replays at once; a new key is then claimed in the database, the one place where two
 *   instances offered the same request can have one winner.
 * - A store that fails (a full disk, a database that is down) never fails a request: the
 *   memory window goes on deciding, and the fault is logged at error at most once a minute.
 */
import type { Logger } from '@slack/bolt';
import { errMessage } from '../../error-message.js';
import { type RareLog, rareLog } from '../../rare-log.js';
import type { SeenRequestsStore } from '../../store/index.js';

/** Keys this front claims (others, e.g. workflow steps' `fn:`, are not its business). */
const PREFIXES = ['sig:', 'event:'];
/** Expired keys leave memory, and the database, at most this often. */
const SWEEP_EVERY_MS = 60_000;
/** Written to the store this long after the first unwritten claim, in one batch. */
const FLUSH_AFTER_MS = 50;
/** At most this many keys in memory (5 minutes at 1,000 requests/s); the oldest go first. */
const MAX_KEYS = 300_000;

export interface ReplayWindowOptions {
  store: SeenRequestsStore;
  logger: Pick<Logger, 'error'>;
  now?: () => number;
  maxKeys?: number;
  /** How long after a claim it is written to an unshared store (default 50 ms). */
  flushAfterMs?: number;
}

export class ReplayWindow {
  /** key → expiry (epoch ms), in insertion order (about expiry order). */
  private readonly keys = new Map<string, number>();
  private readonly unwritten: { key: string; expiresAt: number }[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private lastSweep: number;
  private readonly now: () => number;
  private readonly rare: RareLog;
  private readonly maxKeys: number;
  /** Until the previous run's window is read back, claims wait for it (start-up only). */
  private loading: Promise<void> | undefined;

  constructor(private readonly options: ReplayWindowOptions) {
    this.now = options.now ?? Date.now;
    this.rare = rareLog(options.logger);
    this.maxKeys = options.maxKeys ?? MAX_KEYS;
    this.lastSweep = this.now();
    if (!options.store.shared) {
      this.loading = this.load().finally(() => {
        this.loading = undefined;
      });
    }
  }

  /** Reads the window a previous run of this instance left in the store (one instance). */
  private async load(): Promise<void> {
    try {
      for (const { key, expiresAt } of await this.options.store.live(this.now())) {
        if (PREFIXES.some((p) => key.startsWith(p))) this.remember(key, expiresAt);
      }
    } catch (e) {
      this.rare('replay-load', `The replay window could not be read back: ${errMessage(e)}`);
    }
  }

  /**
   * True when `key` was not taken in yet (it is now, until `expiresAt`); false for a replay.
   * Answers synchronously on one instance; asks the database when it is shared.
   */
  claim(key: string, expiresAt: number): boolean | Promise<boolean> {
    if (this.loading !== undefined) return this.loading.then(() => this.claim(key, expiresAt));
    const now = this.now();
    if (now - this.lastSweep > SWEEP_EVERY_MS) this.sweep(now);
    const known = this.keys.get(key);
    if (known !== undefined && known > now) return false;
    this.remember(key, expiresAt);
    if (this.options.store.shared) return this.claimShared(key, expiresAt, now);
    this.unwritten.push({ key, expiresAt });
    this.flushTimer ??= setTimeout(() => this.flush(), this.options.flushAfterMs ?? FLUSH_AFTER_MS);
    return true;
  }

  /** Writes what is unwritten now (tests; stopping). */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.unwritten.splice(0);
    if (!batch.length) return this.flushing;
    this.flushing = this.flushing.then(async () => {
      try {
        // One write for the batch (one commit on SQLite, not one per request).
        await this.options.store.claimMany(batch, this.now());
      } catch (e) {
        this.rare(
          'replay-write',
          `Requests taken in could not be recorded (replays are still refused while this process runs): ${errMessage(e)}`,
        );
      }
    });
    return this.flushing;
  }

  get size(): number {
    return this.keys.size;
  }

  private async claimShared(key: string, expiresAt: number, now: number): Promise<boolean> {
    try {
      return await this.options.store.claim(key, expiresAt, now);
    } catch (e) {
      // The database is the only guard across instances; without it this instance still
      // refuses its own replays, and the request is answered rather than failed.
      this.rare(
        'replay-claim',
        `The shared replay check could not be asked (requests are checked by this instance alone): ${errMessage(e)}`,
      );
      return true;
    }
  }

  private remember(key: string, expiresAt: number): void {
    this.keys.delete(key);
    this.keys.set(key, expiresAt);
    if (this.keys.size > this.maxKeys) {
      const oldest = this.keys.keys().next().value;
      if (oldest !== undefined) this.keys.delete(oldest);
    }
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, expiresAt] of this.keys) if (expiresAt <= now) this.keys.delete(key);
    this.options.store.prune(now).catch((e: unknown) => {
      this.rare('replay-prune', `Expired replay keys could not be removed: ${errMessage(e)}`);
    });
  }
}
