/**
 * The outbox worker: delivers queued assignment DMs with chat.postMessage, exactly once.
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

import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { errMessage } from '../../error-message.js';
import { newInstanceId } from '../../instance-id.js';
import type { PaceStore } from '../../store/index.js';
import {
  CREATOR_SKIPPED,
  NO_SLACK_ACCOUNT,
  type OutboxRow,
  type OutboxStore,
} from '../../store/index.js';
import { fitMessage } from '../ui/limits.js';
import { rowMessage } from './assignment-message.js';
import { ChannelPacer, type ChannelPacerOptions } from './channel-pacer.js';
import { HeldLeases } from './held-leases.js';
import type { PacerOptions } from './pacer.js';
import { DM_EVENT_TYPE, Reconciler } from './reconcile.js';
import { type NotYet, SharedPace } from './shared-pace.js';
import { classifySlackError, type SlackFailure } from './slack-errors.js';

/** What preparing a row (finding its Slack recipient, filling DM details) decided. */
export type Preparation =
  | {
      kind: 'ready';
      slackUserId: string;
      fields?: Partial<
        Pick<OutboxRow, 'serviceUserEmail' | 'serviceUserName' | 'creatorLabel' | 'projectName'>
      >;
    }
  | { kind: 'failed'; reason: string }
  | { kind: 'skipped'; reason: string };

/** Called for a claimed row that has no recipient yet; throws on Slack/service failures. */
export type PrepareRow = (row: OutboxRow, slack: WebClient) => Promise<Preparation>;

/**
 * The recipient's say, once known, just before sending: send, skip (they turned this kind
 * off) or held (quiet hours: the gate has already taken the row out of the queue).
 */
export type GateRow = (
  row: OutboxRow & { slackUserId: string },
  slack: WebClient,
) => Promise<{ kind: 'send' } | { kind: 'skipped'; reason: string } | { kind: 'held' }>;

export interface NotifyWorkerOptions {
  /** The app store's outbox (src/store/tables/outbox/); its changed() wakes the worker. */
  outbox: OutboxStore;
  /** The teams' and DM channels' pace, shared by every instance (src/store/tables/pace/). */
  pace: PaceStore;
  /** Who this worker is in the rows' leases (default: host, pid and a random part). */
  instanceId?: string;
  /** The Web API client for a team (its bot token), or undefined when not installed. */
  slackFor(teamId: string): Promise<WebClient | undefined>;
  /** Default: rows without a recipient fail ("no Slack account linked"). */
  prepare?: PrepareRow;
  /** Default: every row is sent. */
  gate?: GateRow;
  logger?: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
  /** Sends in flight per team (default 16) and overall (default 64). */
  perTeamConcurrency?: number;
  maxInFlight?: number;
  /**
   * How long a claim lasts before another instance may take the row over (default 30 s);
   * renewed every third of it while the row is worked on. At least three Web API timeouts:
   * a DM is posted only with half a lease left.
   */
  leaseMs?: number;
  /** Backoff for 5xx/network/timeouts: base·2^(n-1) capped, 50–100 % jitter. */
  retryBaseMs?: number;
  retryCapMs?: number;
  /** Tries (not counting 429s) before a row fails for good (default 10). */
  maxAttempts?: number;
  /** How a team's sends are spaced after a 429 (see pacer.ts). */
  pacing?: PacerOptions;
  /** How sends into one DM channel are spaced (see channel-pacer.ts). */
  channelPacing?: ChannelPacerOptions;
  /** How often an idle worker looks for rows written by another process (default 1 s). */
  idlePollMs?: number;
  /** Messages of the DM's history searched when reconciling (default 20). */
  historyLimit?: number;
}

export interface WorkerStats {
  sent: number;
  failed: number;
  skipped: number;
  rateLimited: number;
  retried: number;
  /** Rows found already delivered when reconciled (not sent again). */
  reconciled: number;
  /** Rows held for the recipient's quiet hours. */
  held: number;
}

export class NotifyWorker {
  readonly stats: WorkerStats = {
    sent: 0,
    failed: 0,
    skipped: 0,
    rateLimited: 0,
    retried: 0,
    reconciled: 0,
    held: 0,
  };
  private readonly outbox: OutboxStore;
  private readonly perTeam: number;
  private readonly maxInFlight: number;
  private readonly leaseMs: number;
  private readonly retryBaseMs: number;
  private readonly retryCapMs: number;
  private readonly maxAttempts: number;
  private readonly idlePollMs: number;
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
  private readonly reconciler: Reconciler;

  constructor(private readonly options: NotifyWorkerOptions) {
    this.outbox = options.outbox;
    this.perTeam = options.perTeamConcurrency ?? 16;
    this.maxInFlight = options.maxInFlight ?? 64;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.retryBaseMs = options.retryBaseMs ?? 1_000;
    this.retryCapMs = options.retryCapMs ?? 5 * 60_000;
    this.maxAttempts = options.maxAttempts ?? 10;
    this.idlePollMs = options.idlePollMs ?? 1_000;
    this.channels = new ChannelPacer(options.channelPacing);
    this.pace = new SharedPace(options.pace, this.channels, options.pacing);
    this.instanceId = options.instanceId ?? newInstanceId();
    this.held = new HeldLeases(this.outbox, this.instanceId, this.leaseMs, options.logger);
    this.reconciler = new Reconciler(this.outbox, options.historyLimit ?? 20, options.logger);
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

  /** Teams that must not get new claims now: paced or paused (any instance), or full here. */
  private async blockedTeams(now: number): Promise<Set<string>> {
    const paced = await this.pace.blocked(now);
    this.pacedUntil = paced.nextReadyAt;
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
    for (const { id, teamId, slackUserId } of candidates) {
      if (!this.running || this.active.size >= this.maxInFlight) break;
      if (blocked.has(teamId) || (this.teamActive.get(teamId) ?? 0) >= this.perTeam) continue;
      const at = Date.now();
      if (slackUserId && this.channels.readyAt(teamId, slackUserId, at) !== undefined) {
        deferred.push({ id, at: this.channels.slotFor(teamId, slackUserId, id, at) });
        continue;
      }
      const row = await this.outbox.claim(id, at, this.leaseMs, this.instanceId);
      if (!row) continue; // another worker took it
      moved++;
      // The database decides: another instance may be using the team's pace or the channel.
      let notYet: NotYet | undefined;
      try {
        notYet = await this.pace.begin(teamId, row.slackUserId, at);
      } catch (e) {
        // Not sent: back in the queue (else it waits in 'sending' for its lease to run out).
        await this.outbox.requeue(row.id, at + this.idlePollMs, at);
        throw e;
      }
      if (notYet) {
        let until = notYet.at;
        if (notYet.scope === 'team') {
          blocked.add(teamId);
          this.pacedUntil = Math.min(this.pacedUntil ?? until, until);
        } else if (row.slackUserId) {
          this.channels.limited(teamId, row.slackUserId, notYet.at - at, at);
          until = this.channels.slotFor(teamId, row.slackUserId, id, at);
        }
        await this.outbox.requeue(row.id, until, at);
        continue;
      }
      if (row.slackUserId) this.channels.starting(teamId, row.slackUserId, id, at);
      this.startJob(row, at);
    }
    if (deferred.length) await this.outbox.defer(deferred, now);
    return { moved: moved + deferred.length, sawDue: candidates.length > 0 };
  }

  /** Works on a claimed row in the background. */
  private startJob(row: OutboxRow, now: number): void {
    const { teamId } = row;
    this.held.add(row.id, now);
    this.teamActive.set(teamId, (this.teamActive.get(teamId) ?? 0) + 1);
    const job: Promise<void> = this.process(row)
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

  // ── One row ────────────────────────────────────────────────────────────────

  private async process(claimed: OutboxRow): Promise<void> {
    const { outbox } = this;
    let row = claimed;
    let startedAt: number | undefined;
    const slack = await this.options.slackFor(row.teamId);
    if (!slack) {
      await this.fail(row, 'Worklink is not installed in this Slack workspace');
      return;
    }
    try {
      if (!row.slackUserId) {
        let prep: Preparation;
        try {
          prep = this.options.prepare
            ? await this.options.prepare(row, slack)
            : { kind: 'failed', reason: NO_SLACK_ACCOUNT };
        } catch (e) {
          await this.failedBeforeSending(row, e);
          return;
        }
        if (prep.kind === 'failed') {
          await this.fail(row, prep.reason);
          return;
        }
        if (prep.kind === 'skipped') {
          await outbox.markSkipped(row.id, prep.reason);
          this.stats.skipped++;
          return;
        }
        const fields = { ...prep.fields, slackUserId: prep.slackUserId };
        await outbox.update(row.id, fields);
        row = { ...row, ...fields };
      }
      if (row.slackUserId === row.actorSlackUserId) {
        await outbox.markSkipped(row.id, CREATOR_SKIPPED);
        this.stats.skipped++;
        return;
      }
      if (!claimed.slackUserId) {
        // The channel became known just now: wait for its slot if it is busy (here or at
        // another instance). The team's slot was taken at the claim.
        const now = Date.now();
        const channel = row.slackUserId!;
        let notYet = this.channels.readyAt(row.teamId, channel, now);
        if (notYet === undefined)
          notYet = (await this.pace.begin(row.teamId, channel, now, false))?.at;
        if (notYet !== undefined) {
          this.channels.limited(row.teamId, channel, notYet - now, now);
          const at = this.channels.slotFor(row.teamId, channel, row.id, now);
          await outbox.requeue(row.id, at, now);
          return;
        }
        this.channels.starting(row.teamId, channel, row.id, now);
      }
      // The recipient's say comes last before the post (after the channel's slot), so a DM
      // waiting for its slot is not counted twice in their burst window (dm-gate.ts).
      if (this.options.gate && !row.uncertain) {
        let say: Awaited<ReturnType<GateRow>>;
        try {
          say = await this.options.gate({ ...row, slackUserId: row.slackUserId! }, slack);
        } catch (e) {
          await this.failedBeforeSending(row, e);
          return;
        }
        if (say.kind === 'skipped') {
          await outbox.markSkipped(row.id, say.reason);
          this.stats.skipped++;
          return;
        }
        if (say.kind === 'held') {
          this.stats.held++;
          return;
        }
      }
      if (row.uncertain) {
        const found = await this.reconciler.find(slack, row);
        if (found) {
          await outbox.markSent(row.id, found);
          this.stats.reconciled++;
          this.options.logger?.info(`Outbox row ${row.id} was already delivered; not sent again.`);
          return;
        }
      }
      const message = fitMessage(rowMessage(row));
      // Posted only while this instance holds the row (its lease may have run out in a stall).
      if (!(await this.held.ensure(row.id))) return;
      startedAt = Date.now();
      const res = await slack.chat.postMessage({
        channel: row.slackUserId!,
        text: message.text,
        blocks: message.blocks,
        metadata: {
          event_type: DM_EVENT_TYPE,
          event_payload: { outbox_id: row.id, marker: row.marker, task_id: row.taskId },
        },
        unfurl_links: false,
        unfurl_media: false,
      });
      await outbox.markSent(row.id, { ts: res.ts, channel: res.channel });
      this.stats.sent++;
      // Bookkeeping only: a failure here must not touch the row, which is sent.
      await this.pace
        .answered(row.teamId, row.slackUserId!, startedAt, Date.now())
        .catch((e: unknown) => this.options.logger?.warn(`DM pace not recorded: ${e}`));
    } catch (e) {
      await this.handleFailure(row, classifySlackError(e), startedAt);
    }
  }

  /** Preparing or gating failed: nothing was posted yet, so a retry needs no reconciling. */
  private async failedBeforeSending(row: OutboxRow, e: unknown): Promise<void> {
    const failure = classifySlackError(e);
    await this.handleFailure(
      row,
      failure.kind === 'transient' ? { ...failure, ambiguous: false } : failure,
    );
  }

  /** `startedAt`: when the failed chat.postMessage started (undefined for other calls). */
  private async handleFailure(
    row: OutboxRow,
    failure: SlackFailure,
    startedAt?: number,
  ): Promise<void> {
    const { outbox } = this;
    const now = Date.now();
    switch (failure.kind) {
      case 'rate_limited': {
        const until = now + failure.retryAfterMs;
        let scope: 'team' | 'channel' = 'team';
        if (startedAt !== undefined && row.slackUserId) {
          // A send: its channel waits; the team too when this is the team's limit.
          scope = await this.pace.refused(
            row.teamId,
            row.slackUserId,
            failure.retryAfterMs,
            now,
            startedAt,
          );
        } else {
          // Other calls (e-mail lookups) have limits of their own: pause, learn nothing.
          await this.pace.limited(row.teamId, failure.retryAfterMs, now);
        }
        this.stats.rateLimited++;
        // Slack did not take the call: this try does not count against the row.
        await outbox.reschedule(row.id, until, failure.reason, false, now, true);
        this.options.logger?.debug(
          `${scope === 'team' ? `Team ${row.teamId}` : `The DM channel of ${row.slackUserId}`} rate limited; waiting ${failure.retryAfterMs} ms.`,
        );
        return;
      }
      case 'permanent':
        await this.fail(row, failure.reason);
        return;
      case 'transient': {
        if (row.attempts >= this.maxAttempts) {
          await this.fail(row, `gave up after ${row.attempts} attempts: ${failure.reason}`);
          return;
        }
        this.stats.retried++;
        const at = now + this.backoff(row.attempts);
        await outbox.reschedule(row.id, at, failure.reason, failure.ambiguous, now);
        this.options.logger?.warn(
          `DM for outbox row ${row.id} not delivered (${failure.reason}); retrying in ${at - now} ms.`,
        );
      }
    }
  }

  private async fail(row: OutboxRow, reason: string): Promise<void> {
    await this.outbox.markFailed(row.id, reason);
    this.stats.failed++;
    this.options.logger?.info(
      `DM for outbox row ${row.id} (team ${row.teamId}) failed: ${reason}.`,
    );
  }

  /** Exponential backoff with jitter: base·2^(n-1), capped, then 50–100 % of that. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retryCapMs, this.retryBaseMs * 2 ** Math.min(attempt - 1, 30));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }
}
