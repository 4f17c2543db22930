/**
 * The outbox worker: delivers queued DMs with chat.postMessage, exactly once. This file
 * claims and schedules; one row's delivery is row-delivery.ts, the options worker-options.ts.
 *
 * - Rows are claimed with a lease stamped with this instance (src/store/tables/outbox/, renewed
 *   by held-leases.ts); all state is in the database, so a restarted worker continues where
 *   the last one stopped, and several instances on one database share the work.
 * - A row is marked sent only after Slack said ok. Each DM carries the row's marker in its
 *   message metadata; a row whose previous send may have reached Slack (worker killed
 *   mid-send, timeout, 5xx) is RECONCILED first (reconcile.ts) — the DM channel's recent
 *   history is searched for the marker — and resent only when the DM is not there.
 * - Slack's two limits are paced apart: one message a second into one DM channel
 *   (channel-pacer.ts: a person with ten new tasks gets ten DMs a second apart while
 *   everyone else's go on) and the team's own limit (pacer.ts), both kept in the database
 *   (shared-pace.ts) so that instances together keep to them. Rows due for a channel that
 *   is not ready are moved to its next free slots instead of blocking the queue.
 * - 429: a refused send pauses its channel for Retry-After; refusals in two channels at
 *   once are the team's limit, which pauses the team (other teams go on) and paces it just
 *   under the rate Slack accepted. 5xx, network errors and timeouts: exponential backoff
 *   with jitter, up to `maxAttempts`. Permanent errors (user_not_found, account_inactive,
 *   token_revoked…): the row fails with its reason.
 * - Enough sends in flight per team that Slack's latency does not hold delivery under the
 *   team's limit (rate × latency: 50/s at 100 ms is 5 in flight).
 */

import { errMessage } from '../../error-message.js';
import { newInstanceId } from '../../instance-id.js';
import type { OutboxRow, OutboxStore } from '../../store/index.js';
import { ChannelPacer } from './channel-pacer.js';
import { HeldLeases } from './held-leases.js';
import { Reconciler } from './reconcile.js';
import { RowDelivery } from './row-delivery.js';
import { SharedPace, type Slot } from './shared-pace.js';
import { type NotifyWorkerOptions, newWorkerStats, type WorkerStats } from './worker-options.js';

/** How long the teams found blocked are used again before the database is asked. */
const BLOCKED_FRESH_MS = 100;

export class NotifyWorker {
  readonly stats: WorkerStats = newWorkerStats();
  private readonly outbox: OutboxStore;
  private readonly perTeam: number;
  private readonly maxInFlight: number;
  private readonly leaseMs: number;
  private readonly idlePollMs: number;
  private readonly aheadMs: number;
  private readonly active = new Set<Promise<void>>();
  private readonly teamActive = new Map<string, number>();
  private readonly pace: SharedPace;
  private readonly channels: ChannelPacer;
  private readonly held: HeldLeases;
  readonly instanceId: string;
  /** When the earliest team held back by its pace may send again (from the last look). */
  private pacedUntil: number | undefined;
  private lastSweep = 0;
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private unsubscribe: (() => void) | undefined;
  private readonly delivery: RowDelivery;

  constructor(private readonly options: NotifyWorkerOptions) {
    this.outbox = options.outbox;
    this.perTeam = options.perTeamConcurrency ?? 16;
    this.maxInFlight = options.maxInFlight ?? 64;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.idlePollMs = options.idlePollMs ?? 1_000;
    this.channels = new ChannelPacer(options.channelPacing);
    this.aheadMs = options.paceAheadMs ?? 200;
    this.pace = new SharedPace(
      options.pace,
      this.channels,
      // A team with sends in flight here stays here (their answers count for its pace).
      { ...options.pacing, busy: (teamId) => (this.teamActive.get(teamId) ?? 0) > 0 },
      (e) => options.logger?.warn(`DM pace not recorded: ${errMessage(e)}`),
    );
    this.instanceId = options.instanceId ?? newInstanceId();
    this.held = new HeldLeases(this.outbox, this.instanceId, this.leaseMs, options.logger);
    this.delivery = new RowDelivery({
      outbox: this.outbox,
      pace: this.pace,
      channels: this.channels,
      held: this.held,
      reconciler: new Reconciler(this.outbox, options.historyLimit ?? 20, options.logger),
      stats: this.stats,
      options,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.outbox.onChange(() => this.wake());
    this.held.start();
    this.loopDone = this.loop().catch((e: unknown) => {
      this.options.logger?.error(`The notification worker stopped: ${errMessage(e)}`);
    });
  }

  /** Stops claiming, then waits for the sends in flight (each bounded by its timeout). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wake();
    await this.loopDone;
    await Promise.allSettled([...this.active]);
    await this.pace.flush();
    this.held.stop();
  }

  /** Look for due rows now (rows were queued). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Epoch ms until which a team's sends are paused after a 429, if they are. */
  async teamPausedUntil(teamId: string): Promise<number | undefined> {
    return (await this.pace.state(teamId, Date.now())).pausedUntil;
  }

  /** The spacing (ms) the team's sends keep since its last 429, if any. */
  async teamPaceMs(teamId: string): Promise<number | undefined> {
    return (await this.pace.state(teamId, Date.now())).intervalMs;
  }

  get inFlight(): number {
    return this.active.size;
  }

  // ── Scheduling ─────────────────────────────────────────────────────────────

  private async loop(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let look: { moved: number; sawDue: boolean };
      try {
        look = await this.fill();
      } catch (e) {
        // The database did not answer (a restart, a network blip): look again soon.
        this.options.logger?.warn(`The notification worker could not look for DMs: ${e}`);
        await this.sleep(this.idlePollMs);
        continue;
      }
      if (!this.running) break;
      if (look.moved > 0 || this.woken) {
        // Let the sends start (and other I/O run) before looking again.
        await new Promise((r) => setImmediate(r));
        continue;
      }
      await this.sleep(await this.nextDelay(look.sawDue));
    }
  }

  /**
   * Teams that must not get new claims now: paced or paused (any instance) past the refill
   * lead — a paced team is looked at again while slots within `paceAheadMs` remain, so its
   * next batch is taken before the last one is sent — or full here.
   */
  private async blockedTeams(now: number): Promise<Set<string>> {
    const lead = this.aheadMs / 2;
    const paced = await this.pace.blocked(now + lead, BLOCKED_FRESH_MS);
    this.pacedUntil = paced.nextReadyAt === undefined ? undefined : paced.nextReadyAt - lead;
    const blocked = new Set(paced.teams);
    for (const [team, n] of this.teamActive) if (n >= this.perTeam) blocked.add(team);
    return blocked;
  }

  /**
   * Claims what may start now and moves rows whose channel is not ready to its next slots.
   * `moved`: rows claimed or moved; `sawDue`: due rows were found (then the next look is
   * set by the pacers and finishing sends, not by the queue).
   */
  private async fill(): Promise<{ moved: number; sawDue: boolean }> {
    let moved = 0;
    const now = Date.now();
    const free = this.maxInFlight - this.active.size;
    if (free <= 0) return { moved, sawDue: true };
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await this.options.pace.sweep(now);
    }
    const blocked = await this.blockedTeams(now);
    // Twice what may start: some rows may be for channels that are not ready.
    const candidates = await this.outbox.due(now, free * 2, [...blocked]);
    const deferred: { id: number; at: number }[] = [];
    // Claimed rows by team, to take their slots in one change per team.
    const claimed = new Map<string, OutboxRow[]>();
    // How many of a paced team's rows can get a slot now: more would only go back.
    const room = new Map<string, number>();
    const channelsClaimed = new Set<string>();
    let left = free;
    for (const { id, teamId, slackUserId } of candidates) {
      if (!this.running || left <= 0) break;
      const rows = claimed.get(teamId) ?? [];
      if (blocked.has(teamId) || (this.teamActive.get(teamId) ?? 0) + rows.length >= this.perTeam)
        continue;
      const at = Date.now();
      if (!room.has(teamId)) room.set(teamId, this.pace.room(teamId, at, this.aheadMs));
      if (rows.length >= (room.get(teamId) ?? 0)) continue;
      if (slackUserId && this.channels.readyAt(teamId, slackUserId, at) !== undefined) {
        deferred.push({ id, at: this.channels.slotFor(teamId, slackUserId, id, at) });
        continue;
      }
      // A second row for a channel in this batch: its channel is seen busy at the next look.
      const channelKey = `${teamId}\u0000${slackUserId}`;
      if (slackUserId && channelsClaimed.has(channelKey)) continue;
      const row = await this.outbox.claim(id, at, this.leaseMs, this.instanceId);
      if (!row) continue; // another worker took it
      if (slackUserId) channelsClaimed.add(channelKey);
      moved++;
      left--;
      rows.push(row);
      claimed.set(teamId, rows);
    }
    for (const [teamId, rows] of claimed) await this.startTeam(teamId, rows, blocked);
    // A paced team's next batch is taken while half the horizon is still reserved.
    for (const teamId of room.keys()) {
      const next = this.pace.nextSlotAt(teamId, now);
      const refill = next === undefined ? undefined : next - this.aheadMs / 2;
      if (refill !== undefined && refill > now) {
        this.pacedUntil = Math.min(this.pacedUntil ?? refill, refill);
      }
    }
    if (deferred.length) await this.outbox.defer(deferred, now);
    return { moved: moved + deferred.length, sawDue: candidates.length > 0 };
  }

  /**
   * Takes the team's slots for its claimed rows in ONE change (the database decides: another
   * instance may be using the team's pace or a channel) and starts each row that got one —
   * at once, or at its reserved moment within `paceAheadMs`; the others go back in the queue.
   */
  private async startTeam(teamId: string, rows: OutboxRow[], blocked: Set<string>) {
    const at = Date.now();
    let slots: Slot[];
    try {
      slots = await this.pace.take(
        teamId,
        rows.map((r) => r.slackUserId),
        at,
        { aheadMs: this.aheadMs },
      );
    } catch (e) {
      // Not sent: back in the queue (else they wait in 'sending' for their leases to run out).
      await Promise.all(rows.map((r) => this.outbox.requeue(r.id, at + this.idlePollMs, at)));
      throw e;
    }
    const back: Promise<void>[] = [];
    rows.forEach((row, i) => {
      const slot = slots[i] ?? { at: at + this.idlePollMs, scope: 'team' };
      if (typeof slot === 'number') {
        if (row.slackUserId) this.channels.starting(teamId, row.slackUserId, row.id, slot);
        this.startJob(row, at, slot);
        return;
      }
      let until = slot.at;
      if (slot.scope === 'team') {
        blocked.add(teamId);
        const refill = until - this.aheadMs / 2;
        this.pacedUntil = Math.min(this.pacedUntil ?? refill, refill);
      } else if (row.slackUserId) {
        this.channels.limited(teamId, row.slackUserId, slot.at - at, at);
        until = this.channels.slotFor(teamId, row.slackUserId, row.id, at);
      }
      back.push(this.outbox.requeue(row.id, until, at));
    });
    await Promise.all(back);
  }

  /** Works on a claimed row in the background; its send starts at `startAt` (its slot). */
  private startJob(row: OutboxRow, now: number, startAt: number): void {
    const { teamId } = row;
    this.held.add(row.id, now);
    this.teamActive.set(teamId, (this.teamActive.get(teamId) ?? 0) + 1);
    const job: Promise<void> = this.delivery
      .process(row, startAt)
      .catch((e: unknown) => {
        this.options.logger?.error(`Outbox row ${row.id} could not be processed: ${e}`);
      })
      .finally(() => {
        this.held.delete(row.id);
        this.active.delete(job);
        const left = (this.teamActive.get(teamId) ?? 1) - 1;
        if (left > 0) this.teamActive.set(teamId, left);
        else this.teamActive.delete(teamId);
        this.wake();
      });
    this.active.add(job);
  }

  private async nextDelay(sawDue: boolean): Promise<number> {
    const now = Date.now();
    if (this.active.size >= this.maxInFlight) return this.idlePollMs;
    let delay = this.idlePollMs;
    // Due rows left where they are wait for their team's pace or a free slot (a finishing
    // send wakes the loop); only an empty front of the queue needs the next due time.
    if (!sawDue) {
      const next = await this.outbox.nextDueAt([...(await this.blockedTeams(now))]);
      if (next !== undefined) delay = Math.min(delay, next - now);
    }
    if (this.pacedUntil !== undefined) delay = Math.min(delay, this.pacedUntil - now);
    // A floor, so a row another process keeps taking cannot make this spin.
    return Math.max(delay, 5);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      // An idle worker alone must not keep the process alive.
      timer.unref();
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeUp = undefined;
        resolve();
      }
      this.wakeUp = done;
    });
  }
}
