/**
 * notify_outbox: one row per (Slack team, task, service user) — the DM that tells an assignee
 * about a new task. Rows are committed before anything is sent, and the UNIQUE key is what
 * makes "one DM per assignee" hold however many times a task is announced (Slack path,
 * service event, retries of either). The worker (src/slack/notify/worker.ts) moves rows
 * pending → sending → sent | failed; 'skipped' marks the creator, who is not told of their
 * own action (the row stays, so a later announcement cannot queue it again).
 *
 * Claims are leases: a row left in 'sending' past `claimed_until` belonged to a worker that
 * died mid-send, and is claimed again with `uncertain` set, so it is reconciled (was the DM
 * posted after all?) before anything is resent.
 *
 * Also here: notify_seen_events, the ids of service events already taken in (replays).
 */

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

/** The reason stored on rows whose assignee has no Slack match. */
export const NO_SLACK_ACCOUNT = 'no Slack account linked';

/** The reason stored on the creator's own row. */
export const CREATOR_SKIPPED = 'created the task';

/** What a queued DM is about: the task, its assignee (the recipient) and who created it. */
interface OutboxTask {
  teamId: string;
  taskId: string;
  serviceUserId: string;
  serviceUserEmail?: string;
  serviceUserName?: string;
  source: 'slack' | 'event';
  actorSlackUserId?: string;
  actorServiceUserId?: string;
  /** '<@U…>' (created in Slack) or the creator's name. */
  creatorLabel?: string;
  taskName: string;
  projectId?: string;
  projectName?: string;
  dueDate?: string;
  priority?: string;
  /** The recipient, once matched. */
  slackUserId?: string;
  /** A DM that carries its own message (the digest): JSON {text, blocks}. */
  message?: string;
}

export interface OutboxRow extends OutboxTask {
  id: number;
  status: OutboxStatus;
  attempts: number;
  /** Epoch ms. */
  nextAttemptAt: number;
  claimedUntil?: number;
  /** The instance holding (or last holding) the lease. */
  claimedBy?: string;
  /** A previous send may have reached Slack: look for `marker` before sending again. */
  uncertain: boolean;
  marker: string;
  lastError?: string;
  dmChannel?: string;
  messageTs?: string;
  createdAt: string;
  sentAt?: string;
  updatedAt: string;
}

/** A row to queue. `status` defaults to 'pending'. */
export interface NewOutboxRow extends OutboxTask {
  status?: 'pending' | 'skipped' | 'failed';
  lastError?: string;
  /** Epoch ms before which the worker leaves the row alone (default: now). */
  notBefore?: number;
}

export interface OutboxSummary {
  pending: number;
  sending: number;
  sent: number;
  failed: number;
  skipped: number;
  /** The latest failures, newest first. */
  recentFailures: OutboxRow[];
}

export interface OutboxStore {
  /** Tells the listeners (the worker) that rows were queued, so it need not wait for its poll. */
  changed(): void;
  /** Listens for `changed()`; returns the unsubscribe function. */
  onChange(listener: () => void): () => void;
  /**
   * Queues rows in ONE transaction and returns the rows as they now stand (new or existing).
   * 'ignore' keeps any existing row as it is (service events). 'slack' also takes over a row
   * that a service event queued and nobody has started sending: the Slack path knows who
   * really created the task (the event only knows the API key's owner).
   */
  enqueue(rows: NewOutboxRow[], mode: 'ignore' | 'slack', now?: number): Promise<OutboxRow[]>;
  get(id: number): Promise<OutboxRow | undefined>;
  forTask(teamId: string, taskId: string): Promise<OutboxRow[]>;
  /**
   * Rows due at `now`, oldest first, leaving out `excludeTeams`, with their recipient when
   * known. Each team's rows are one index range (team, due time), so rows of paused or paced
   * teams are not walked, however many there are.
   */
  due(now: number, limit: number, excludeTeams?: readonly string[]): Promise<DueRow[]>;
  /**
   * Takes a due row for `leaseMs` (attempts + 1), as `holder` (the instance). A row found in
   * 'sending' (its worker died) comes back with `uncertain` set. Undefined when someone else
   * took it or it is not due.
   */
  claim(id: number, now: number, leaseMs: number, holder?: string): Promise<OutboxRow | undefined>;
  /**
   * Extends the leases `holder` still has on rows being sent to `until`; returns the ids it
   * still holds (a row missing was taken over after its lease ran out).
   */
  renew(ids: readonly number[], holder: string, until: number): Promise<number[]>;
  /** When the next row (not in `excludeTeams`) becomes due; undefined when none will. */
  nextDueAt(excludeTeams?: readonly string[]): Promise<number | undefined>;
  /** Fills in what matching found (recipient, DM details) on a row. */
  update(
    id: number,
    fields: Partial<
      Pick<
        OutboxRow,
        | 'slackUserId'
        | 'serviceUserEmail'
        | 'serviceUserName'
        | 'creatorLabel'
        | 'projectName'
        | 'dmChannel'
      >
    >,
  ): Promise<void>;
  /** Makes a held pending row due now (after the announcer finished matching it). */
  release(id: number, now?: number): Promise<void>;
  /**
   * Moves pending rows to later due times (rows whose DM channel is not ready), in one
   * transaction: they leave the front of the queue, so the rows behind them are found.
   */
  defer(rows: readonly { id: number; at: number }[], now?: number): Promise<void>;
  /** A claimed row back to pending, due at `at`, its attempt refunded (nothing was sent). */
  requeue(id: number, at: number, now?: number): Promise<void>;
  markSent(id: number, result: { ts?: string; channel?: string }, now?: number): Promise<void>;
  markFailed(id: number, reason: string, now?: number): Promise<void>;
  markSkipped(id: number, reason: string, now?: number): Promise<void>;
  /**
   * Fails every pending row of a team with `reason` (the team removed Worklink: no token can
   * send them). Rows being sent end on their own. Returns how many.
   */
  failPending(teamId: string, reason: string, now?: number): Promise<number>;
  /**
   * Back to pending, due at `at`; `uncertain` sticks once set until the row is sent.
   * `refund` takes back the attempt the claim counted (a 429: Slack did not take the call).
   */
  reschedule(
    id: number,
    at: number,
    error: string,
    uncertain: boolean,
    now?: number,
    refund?: boolean,
  ): Promise<void>;
  summary(teamId: string, recent?: number): Promise<OutboxSummary>;
  /** Counts by status over all teams (benchmarks, tests, metrics). */
  counts(): Promise<Record<OutboxStatus, number>>;
  /** When the oldest row not sent yet (pending or sending) was queued, epoch ms (metrics). */
  oldestQueuedAt(): Promise<number | undefined>;
}

/** A due row: enough to decide whether to claim it. */
export interface DueRow {
  id: number;
  teamId: string;
  /** The recipient, once matched (its DM channel is paced). */
  slackUserId?: string;
}
