/**
 * The outbox rows one worker is sending, and their leases (src/store/tables/outbox/).
 *
 * A claim stamps the row with this instance and a lease (default 30 s, three Web API
 * timeouts). While the row is being worked on, its lease is renewed every third of that, for
 * all rows in flight in one statement. Before a DM is posted the worker checks that it still
 * holds the row with at least half a lease left (renewing at once when less is left): an
 * instance that stalled past its lease finds the row taken over and leaves it to the other
 * instance, which reconciles against the DM's history before it sends. So a DM is posted by
 * one instance at a time; what is left is a stall longer than half a lease between that
 * check and the post's answer (docs/architecture.md, "Several instances").
 */
import type { Logger } from '@slack/bolt';
import { errMessage } from '../../error-message.js';
import type { OutboxStore } from '../../store/index.js';

export class HeldLeases {
  /** Row id → epoch ms its lease ends. */
  private readonly until = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly outbox: OutboxStore,
    private readonly holder: string,
    readonly leaseMs: number,
    private readonly logger?: Pick<Logger, 'debug' | 'warn'>,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.renewAll(), Math.max(this.leaseMs / 3, 10));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A row was claimed at `now`. */
  add(id: number, now: number): void {
    this.until.set(id, now + this.leaseMs);
  }

  /** Work on the row ended (sent, failed, rescheduled). */
  delete(id: number): void {
    this.until.delete(id);
  }

  /** True when this instance still holds row `id` with at least half a lease left. */
  async ensure(id: number): Promise<boolean> {
    const until = this.until.get(id);
    if (until === undefined) return false;
    const now = Date.now();
    if (until - now >= this.leaseMs / 2) return true;
    const kept = await this.outbox.renew([id], this.holder, now + this.leaseMs);
    if (kept.includes(id)) {
      this.until.set(id, now + this.leaseMs);
      return true;
    }
    this.lost([id]);
    return false;
  }

  /** Renews every lease held; rows taken over meanwhile are let go. */
  async renewAll(): Promise<void> {
    const ids = [...this.until.keys()];
    if (!ids.length) return;
    const now = Date.now();
    try {
      const kept = new Set(await this.outbox.renew(ids, this.holder, now + this.leaseMs));
      for (const id of ids) {
        if (!this.until.has(id)) continue;
        if (kept.has(id)) this.until.set(id, now + this.leaseMs);
        // A row that just ended here (sent, rescheduled) is not renewed either: not lost.
        else if ((await this.outbox.get(id))?.status === 'sending') this.lost([id]);
      }
    } catch (e) {
      this.logger?.warn(`Could not renew the leases of DMs being sent: ${errMessage(e)}`);
    }
  }

  private lost(ids: number[]): void {
    for (const id of ids) this.until.delete(id);
    this.logger?.warn(
      `Lost the lease on outbox row(s) ${ids.join(', ')}: another instance took them over.`,
    );
  }
}
