/**
 * One claimed outbox row, worked to its end (worker.ts claims and schedules; this delivers):
 * its recipient found (prepare), the creator skipped, the DM channel's slot taken, the
 * recipient's say asked (gate: settings, quiet hours, bursts), a possibly sent DM reconciled
 * against the channel's history, then the post — only while this instance holds the row —
 * and the row marked sent. A failure is sorted (slack-errors.ts): a 429 pauses the channel or
 * the team and does not count as a try; 5xx, network errors and timeouts back off
 * exponentially with jitter up to `maxAttempts`; anything permanent fails the row with its
 * reason.
 */
import {
  CREATOR_SKIPPED,
  NO_SLACK_ACCOUNT,
  type OutboxRow,
  type OutboxStore,
} from '../../store/index.js';
import { fitMessage } from '../ui/limits.js';
import { rowMessage } from './assignment-message.js';
import type { ChannelPacer } from './channel-pacer.js';
import type { HeldLeases } from './held-leases.js';
import { DM_EVENT_TYPE, type Reconciler } from './reconcile.js';
import type { SharedPace } from './shared-pace.js';
import { classifySlackError, type SlackFailure } from './slack-errors.js';
import type { GateRow, NotifyWorkerOptions, Preparation, WorkerStats } from './worker-options.js';

/** The worker's parts a delivery uses (shared with its scheduling: the same pacers, leases). */
export interface DeliveryParts {
  outbox: OutboxStore;
  pace: SharedPace;
  channels: ChannelPacer;
  held: HeldLeases;
  reconciler: Reconciler;
  stats: WorkerStats;
  options: NotifyWorkerOptions;
}

export class RowDelivery {
  private readonly retryBaseMs: number;
  private readonly retryCapMs: number;
  private readonly maxAttempts: number;

  constructor(private readonly parts: DeliveryParts) {
    this.retryBaseMs = parts.options.retryBaseMs ?? 1_000;
    this.retryCapMs = parts.options.retryCapMs ?? 5 * 60_000;
    this.maxAttempts = parts.options.maxAttempts ?? 10;
  }

  /**
   * Works a claimed row to its end: sent, held, skipped, failed or queued again. Its send
   * starts no sooner than `startAt`, the team's slot taken for it.
   */
  async process(claimed: OutboxRow, startAt = 0): Promise<void> {
    const { outbox } = this.parts;
    let row = claimed;
    let startedAt: number | undefined;
    const slack = await this.parts.options.slackFor(row.teamId);
    if (!slack) {
      await this.fail(row, 'Worklink is not installed in this Slack workspace');
      return;
    }
    try {
      if (!row.slackUserId) {
        let prep: Preparation;
        try {
          prep = this.parts.options.prepare
            ? await this.parts.options.prepare(row, slack)
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
          this.parts.stats.skipped++;
          return;
        }
        const fields = { ...prep.fields, slackUserId: prep.slackUserId };
        await outbox.update(row.id, fields);
        row = { ...row, ...fields };
      }
      if (row.slackUserId === row.actorSlackUserId) {
        await outbox.markSkipped(row.id, CREATOR_SKIPPED);
        this.parts.stats.skipped++;
        return;
      }
      // The recipient's say comes before the channel's slot: a DM held or skipped takes no
      // slot (a burst of held DMs would otherwise go a second apart). A DM told to go that
      // then waits for its slot is asked again; the gate counts it in a burst only once.
      if (this.parts.options.gate && !row.uncertain) {
        let say: Awaited<ReturnType<GateRow>>;
        try {
          say = await this.parts.options.gate({ ...row, slackUserId: row.slackUserId! }, slack);
        } catch (e) {
          await this.failedBeforeSending(row, e);
          return;
        }
        if (say.kind === 'skipped') {
          await outbox.markSkipped(row.id, say.reason);
          this.parts.stats.skipped++;
          return;
        }
        if (say.kind === 'held') {
          this.parts.stats.held++;
          return;
        }
      }
      if (!claimed.slackUserId) {
        // The channel became known just now: wait for its slot if it is busy (here or at
        // another instance). The team's slot was taken at the claim.
        const now = Math.max(Date.now(), startAt);
        const channel = row.slackUserId!;
        let notYet = this.parts.channels.readyAt(row.teamId, channel, now);
        if (notYet === undefined)
          notYet = (await this.parts.pace.begin(row.teamId, channel, now, false))?.at;
        if (notYet !== undefined) {
          this.parts.channels.limited(row.teamId, channel, notYet - now, now);
          const at = this.parts.channels.slotFor(row.teamId, channel, row.id, now);
          await outbox.requeue(row.id, at, now);
          return;
        }
        this.parts.channels.starting(row.teamId, channel, row.id, now);
      }
      if (row.uncertain) {
        const found = await this.parts.reconciler.find(slack, row);
        if (found) {
          await outbox.markSent(row.id, found);
          this.parts.stats.reconciled++;
          this.parts.options.logger?.info(
            `Outbox row ${row.id} was already delivered; not sent again.`,
          );
          return;
        }
      }
      const message = fitMessage(rowMessage(row));
      const wait = startAt - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      // Posted only while this instance holds the row (its lease may have run out in a stall).
      if (!(await this.parts.held.ensure(row.id))) return;
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
      this.parts.stats.sent++;
      // Bookkeeping only, written with the team's next pace change: the row is sent.
      this.parts.pace.answered(row.teamId, row.slackUserId!, startedAt, Date.now());
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
    const { outbox } = this.parts;
    const now = Date.now();
    switch (failure.kind) {
      case 'rate_limited': {
        const until = now + failure.retryAfterMs;
        let scope: 'team' | 'channel' = 'team';
        if (startedAt !== undefined && row.slackUserId) {
          // A send: its channel waits; the team too when this is the team's limit.
          scope = await this.parts.pace.refused(
            row.teamId,
            row.slackUserId,
            failure.retryAfterMs,
            now,
            startedAt,
          );
        } else {
          // Other calls (e-mail lookups) have limits of their own: pause, learn nothing.
          await this.parts.pace.limited(row.teamId, failure.retryAfterMs, now);
        }
        this.parts.stats.rateLimited++;
        // Slack did not take the call: this try does not count against the row.
        await outbox.reschedule(row.id, until, failure.reason, false, now, true);
        this.parts.options.logger?.debug(
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
        this.parts.stats.retried++;
        const at = now + this.backoff(row.attempts);
        await outbox.reschedule(row.id, at, failure.reason, failure.ambiguous, now);
        this.parts.options.logger?.warn(
          `DM for outbox row ${row.id} not delivered (${failure.reason}); retrying in ${at - now} ms.`,
        );
      }
    }
  }

  private async fail(row: OutboxRow, reason: string): Promise<void> {
    await this.parts.outbox.markFailed(row.id, reason);
    this.parts.stats.failed++;
    this.parts.options.logger?.info(
      `DM for outbox row ${row.id} (team ${row.teamId}) failed: ${reason}.`,
    );
  }

  /** Exponential backoff with jitter: base·2^(n-1), capped, then 50–100 % of that. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retryCapMs, this.retryBaseMs * 2 ** Math.min(attempt - 1, 30));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }
}
