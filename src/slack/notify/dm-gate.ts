/**
 * Each person's say over the DMs sent to them, applied by the outbox worker just before a DM
 * goes out (worker.ts `gate`), whichever path queued it (new task, event, watcher, activity,
 * digest): a kind they turned off is skipped; during their quiet hours (in their Slack time
 * zone) the DM is held (store/tables/held-dms/). Bursts: past the first few DMs to one person in a
 * short window (60 tasks assigned to them in a minute), the rest are held to the window's
 * end. `QuietRelease`, a long-lived part, releases held DMs when their time comes: one alone
 * as it was, several as one message (grouped-message.ts) — nothing is dropped, and the one
 * message is an outbox row like any other (retried, reconciled).
 */
import type { Logger } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { LongLivedPart } from '../../long-lived-part.js';
import { Periodic } from '../../periodic.js';
import type { DmBurstRule, HeldDm, NotifyKind, OutboxRow, Store } from '../../store/index.js';
import type { SlackUserDirectory } from '../context/slack-users.js';
import { rowMessage } from './assignment-message.js';
import { groupedMessage } from './grouped-message.js';
import { parseQuietHours, quietUntil } from './quiet-hours.js';
import type { GateRow } from './worker-options.js';

/** An outbox key's prefix → the setting that governs it (activity-dms.ts makes the keys). */
const KEY_KINDS: Record<string, NotifyKind> = {
  comment: 'comments',
  completed: 'completed',
  digest: 'digest',
};

/**
 * The setting a row falls under: a bare task id is an assignment DM; a known prefix its kind;
 * anything else (the combined quiet-hours message) is not gated.
 */
export function kindOfRow(taskId: string): NotifyKind | undefined {
  const colon = taskId.indexOf(':');
  if (colon < 0) return 'assigned';
  return KEY_KINDS[taskId.slice(0, colon)];
}

/** The DM's notification text (the line it gets in a combined message). */
export function summaryOf(row: OutboxRow): string {
  return rowMessage(row).text;
}

export interface GateDeps {
  store: Store;
  users: SlackUserDirectory;
  /** Epoch ms now (tests: a fake clock). */
  now: () => number;
  /** DMs to one person past `after` in `windowMs` wait for the window's end; none: no bursts. */
  burst?: DmBurstRule;
}

/** Keys whose DMs a person asked for themselves (reminders): no setting, but quiet hours. */
const QUIET_ONLY = ['remind:'];

/** DMs to one person that go out as they come in a burst window; the rest are grouped. */
export const BURST_AFTER = 3;

/** The kinds that come in floods and are grouped; the digest is one message already. */
const BURST_KINDS: readonly NotifyKind[] = ['assigned', 'comments', 'completed'];

/** What a held DM keeps for the one message it goes out in. */
function heldOf(row: Parameters<GateRow>[0], kind: NotifyKind | undefined) {
  return {
    outboxId: row.id,
    teamId: row.teamId,
    slackUserId: row.slackUserId,
    summary: summaryOf(row),
    ...(kind ? { kind } : {}),
    ...(row.projectName ? { projectName: row.projectName } : {}),
    taskName: row.taskName,
  } satisfies Omit<HeldDm, 'releaseAt'>;
}

export function dmGate({ store, users, now, burst }: GateDeps): GateRow {
  const counted = new CountedDms(burst?.windowMs ?? 0);
  return async (row, slack) => {
    const kind = kindOfRow(row.taskId);
    const quietOnly = QUIET_ONLY.some((p) => row.taskId.startsWith(p));
    if (!kind && !quietOnly) return { kind: 'send' };
    // The kind's setting and the quiet hours in one read.
    const settings = await store.notifySettings.forDm(row.teamId, row.slackUserId, kind);
    if (kind && !settings.enabled) {
      return { kind: 'skipped', reason: `${kind} notifications turned off by the recipient` };
    }
    const stored = settings.quietHours;
    const window = stored ? parseQuietHours(stored) : undefined;
    if (window) {
      const tz = (await users.get(slack, row.teamId, row.slackUserId)).tz || 'UTC';
      const releaseAt = quietUntil(window, tz, now());
      if (releaseAt !== undefined) {
        await store.heldDms.hold({ ...heldOf(row, kind), releaseAt, cause: 'quiet' });
        return { kind: 'held' };
      }
    }
    // A DM told to go that waited for its channel's slot is asked again: counted once.
    if (burst && kind && BURST_KINDS.includes(kind) && !counted.has(row.id, now())) {
      const { teamId, slackUserId } = row;
      const releaseAt = await store.heldDms.countInBurst(teamId, slackUserId, now(), burst);
      if (releaseAt !== undefined) {
        await store.heldDms.hold({ ...heldOf(row, kind), releaseAt, cause: 'burst' });
        return { kind: 'held' };
      }
      counted.add(row.id, now());
      return { kind: 'send' };
    }
    return { kind: 'send' };
  };
}

/**
 * The outbox rows this process counted in a burst and told to go, for the window's length: a
 * DM that then waits for its DM channel's slot comes back to the gate and must not be counted
 * again (which would hold it, and the DMs after it, for nothing). Kept in memory: another
 * instance or a restart may count one twice, which only groups a DM more eagerly.
 */
class CountedDms {
  private readonly until = new Map<number, number>();

  constructor(private readonly keepMs: number) {}

  add(outboxId: number, now: number): void {
    if (this.until.size > 10_000) {
      for (const [id, at] of this.until) if (at <= now) this.until.delete(id);
    }
    this.until.set(outboxId, now + this.keepMs);
  }

  has(outboxId: number, now: number): boolean {
    const at = this.until.get(outboxId);
    return at !== undefined && at > now;
  }
}

export interface QuietReleaseDeps {
  store: Store;
  logger: Pick<Logger, 'warn'>;
  now: () => number;
  /** How often held DMs are looked at (default 5 s: a burst's message follows its window). */
  intervalMs?: number;
}

/** Releases held DMs whose quiet hours are over (a long-lived part). */
export class QuietRelease implements LongLivedPart {
  readonly name = 'quiet hours';
  private readonly rounds: Periodic;

  constructor(private readonly deps: QuietReleaseDeps) {
    this.rounds = new Periodic({
      name: 'Releasing held DMs',
      intervalMs: deps.intervalMs ?? 5_000,
      round: () => this.runOnce(),
      logger: deps.logger,
    });
  }

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** Queues what is due now; returns how many messages were queued. */
  runOnce(): Promise<number> {
    return this.deps.store.heldDms.release(this.deps.now(), (held) =>
      JSON.stringify(groupedMessage(held) satisfies { text: string; blocks: KnownBlock[] }),
    );
  }
}
