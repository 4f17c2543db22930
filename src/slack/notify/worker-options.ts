/**
 * What the outbox worker (worker.ts) is given and keeps: its options, the hooks the app
 * plugs in (prepare: find the recipient; gate: the recipient's say) and its counters.
 */
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { OutboxRow, OutboxStore, PaceStore } from '../../store/index.js';
import type { ChannelPacerOptions } from './channel-pacer.js';
import type { PacerOptions } from './pacer.js';

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
  /**
   * How far ahead a paced team's slots are taken for claimed rows (default 200 ms): one
   * change of the shared pace starts that many of its DMs, each sent at its moment.
   */
  paceAheadMs?: number;
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

export function newWorkerStats(): WorkerStats {
  return { sent: 0, failed: 0, skipped: 0, rateLimited: 0, retried: 0, reconciled: 0, held: 0 };
}
