/**
 * Each person's say over the DMs sent to them, applied by the outbox worker just before a DM
 * goes out (worker.ts `gate`), whichever path queued it (new task, event, watcher, activity,
 * digest): a kind they turned off is skipped; during their quiet hours (in their Slack time
 * zone) the DM is held (store/tables/held-dms/). `QuietRelease`, a long-lived part, releases held
 * DMs when the hours end: one alone as it was, several as one message listing them.
 */
import type { Logger } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { LongLivedPart } from '../../long-lived-part.js';
import { Periodic } from '../../periodic.js';
import type { NotifyKind, OutboxRow, Store } from '../../store/index.js';
import type { SlackUserDirectory } from '../context/slack-users.js';
import { heldMessage } from './activity-messages.js';
import { rowMessage } from './assignment-message.js';
import { parseQuietHours, quietUntil } from './quiet-hours.js';
import type { GateRow } from './worker.js';

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
}

/** Keys whose DMs a person asked for themselves (reminders): no setting, but quiet hours. */
const QUIET_ONLY = ['remind:'];

export function dmGate({ store, users, now }: GateDeps): GateRow {
  return async (row, slack) => {
    const kind = kindOfRow(row.taskId);
    const quietOnly = QUIET_ONLY.some((p) => row.taskId.startsWith(p));
    if (!kind && !quietOnly) return { kind: 'send' };
    if (kind && !(await store.notifySettings.enabled(row.teamId, row.slackUserId, kind))) {
      return { kind: 'skipped', reason: `${kind} notifications turned off by the recipient` };
    }
    const stored = await store.notifySettings.quietHours(row.teamId, row.slackUserId);
    const window = stored ? parseQuietHours(stored) : undefined;
    if (!window) return { kind: 'send' };
    const tz = (await users.get(slack, row.teamId, row.slackUserId)).tz || 'UTC';
    const releaseAt = quietUntil(window, tz, now());
    if (releaseAt === undefined) return { kind: 'send' };
    await store.heldDms.hold({
      outboxId: row.id,
      teamId: row.teamId,
      slackUserId: row.slackUserId,
      releaseAt,
      summary: summaryOf(row),
    });
    return { kind: 'held' };
  };
}

export interface QuietReleaseDeps {
  store: Store;
  logger: Pick<Logger, 'warn'>;
  now: () => number;
  /** How often held DMs are looked at (default 30 s). */
  intervalMs?: number;
}

/** Releases held DMs whose quiet hours are over (a long-lived part). */
export class QuietRelease implements LongLivedPart {
  readonly name = 'quiet hours';
  private readonly rounds: Periodic;

  constructor(private readonly deps: QuietReleaseDeps) {
    this.rounds = new Periodic({
      name: 'Releasing held DMs',
      intervalMs: deps.intervalMs ?? 30_000,
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
      JSON.stringify(heldMessage(held) satisfies { text: string; blocks: KnownBlock[] }),
    );
  }
}
