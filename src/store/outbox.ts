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
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

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

/** A row as SQLite stores it (the PostgreSQL engine's differs in `uncertain`, a boolean). */
export interface Row {
  id: number;
  team_id: string;
  task_id: string;
  service_user_id: string;
  service_user_email: string | null;
  service_user_name: string | null;
  source: 'slack' | 'event';
  actor_slack_user_id: string | null;
  actor_service_user_id: string | null;
  creator_label: string | null;
  task_name: string;
  project_id: string | null;
  project_name: string | null;
  due_date: string | null;
  priority: string | null;
  slack_user_id: string | null;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  claimed_by: string | null;
  uncertain: number;
  marker: string;
  last_error: string | null;
  dm_channel: string | null;
  message_ts: string | null;
  message: string | null;
  created_at: string;
  sent_at: string | null;
  updated_at: string;
}

/** A due row: enough to decide whether to claim it. */
export interface DueRow {
  id: number;
  teamId: string;
  /** The recipient, once matched (its DM channel is paced). */
  slackUserId?: string;
}

type DueParams = [{ now: number; exclude: string; limit: number }];
type DueSql = { id: number; teamId: string; slackUserId: string | null; at: number };

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function fromRow(r: Row): OutboxRow {
  return {
    id: r.id,
    teamId: r.team_id,
    taskId: r.task_id,
    serviceUserId: r.service_user_id,
    serviceUserEmail: opt(r.service_user_email),
    serviceUserName: opt(r.service_user_name),
    source: r.source,
    actorSlackUserId: opt(r.actor_slack_user_id),
    actorServiceUserId: opt(r.actor_service_user_id),
    creatorLabel: opt(r.creator_label),
    taskName: r.task_name,
    projectId: opt(r.project_id),
    projectName: opt(r.project_name),
    dueDate: opt(r.due_date),
    priority: opt(r.priority),
    slackUserId: opt(r.slack_user_id),
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    claimedUntil: opt(r.claimed_until),
    claimedBy: opt(r.claimed_by),
    uncertain: r.uncertain === 1,
    marker: r.marker,
    lastError: opt(r.last_error),
    dmChannel: opt(r.dm_channel),
    messageTs: opt(r.message_ts),
    message: opt(r.message),
    createdAt: r.created_at,
    sentAt: opt(r.sent_at),
    updatedAt: r.updated_at,
  };
}

export const iso = (ms: number) => new Date(ms).toISOString();
/** Errors are stored for people to read; keep them short. */
export const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 297)}...` : s);

/** The wake-up signal: `changed()` tells every `onChange` listener (the worker). */
export function changeSignal(): Pick<OutboxStore, 'changed' | 'onChange'> {
  const listeners = new Set<() => void>();
  return {
    changed: () => {
      for (const listener of listeners) listener();
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The columns `update` may set, by field. */
export const FIELD_COLUMNS: Record<string, string> = {
  slackUserId: 'slack_user_id',
  serviceUserEmail: 'service_user_email',
  serviceUserName: 'service_user_name',
  creatorLabel: 'creator_label',
  projectName: 'project_name',
  dmChannel: 'dm_channel',
};

export function outboxStore(db: Database.Database): Sync<OutboxStore> {
  const columns = `team_id, task_id, service_user_id, service_user_email, service_user_name,
    source, actor_slack_user_id, actor_service_user_id, creator_label, task_name, project_id,
    project_name, due_date, priority, slack_user_id, status, next_attempt_at, marker, last_error,
    created_at, updated_at, message`;
  const values = `@team_id, @task_id, @service_user_id, @service_user_email, @service_user_name,
    @source, @actor_slack_user_id, @actor_service_user_id, @creator_label, @task_name,
    @project_id, @project_name, @due_date, @priority, @slack_user_id, @status,
    @next_attempt_at, @marker, @last_error, @created_at, @updated_at, @message`;
  const insertIgnore = db.prepare(
    `INSERT INTO notify_outbox (${columns}) VALUES (${values})
     ON CONFLICT (team_id, task_id, service_user_id) DO NOTHING`,
  );
  // The Slack path takes over an event's row only while nobody has started sending it.
  const insertSlack = db.prepare(
    `INSERT INTO notify_outbox (${columns}) VALUES (${values})
     ON CONFLICT (team_id, task_id, service_user_id) DO UPDATE SET
       source = 'slack',
       actor_slack_user_id = excluded.actor_slack_user_id,
       actor_service_user_id = excluded.actor_service_user_id,
       creator_label = COALESCE(excluded.creator_label, creator_label),
       service_user_email = COALESCE(excluded.service_user_email, service_user_email),
       service_user_name = COALESCE(excluded.service_user_name, service_user_name),
       project_name = COALESCE(excluded.project_name, project_name),
       slack_user_id = excluded.slack_user_id,
       status = excluded.status,
       last_error = excluded.last_error,
       next_attempt_at = excluded.next_attempt_at,
       updated_at = excluded.updated_at
     WHERE notify_outbox.source = 'event' AND notify_outbox.status IN ('pending', 'skipped')`,
  );
  const byKey = db.prepare<[string, string, string], Row>(
    'SELECT * FROM notify_outbox WHERE team_id = ? AND task_id = ? AND service_user_id = ?',
  );
  const byId = db.prepare<[number], Row>('SELECT * FROM notify_outbox WHERE id = ?');
  const byTask = db.prepare<[string, string], Row>(
    'SELECT * FROM notify_outbox WHERE team_id = ? AND task_id = ? ORDER BY id',
  );
  // Each team's due rows are one range of notify_outbox_team_due, read in order. The teams
  // with pending rows are found by skipping through the same index, one step per team.
  const pendingTeams = db.prepare<[], { id: string }>(
    `WITH RECURSIVE teams(id) AS (
       SELECT ''
       UNION ALL
       SELECT (SELECT MIN(team_id) FROM notify_outbox
                WHERE status = 'pending' AND team_id > teams.id)
         FROM teams WHERE teams.id IS NOT NULL)
     SELECT id FROM teams WHERE id <> ''`,
  );
  const duePending = db.prepare<[{ team: string; now: number; limit: number }], DueSql>(
    `SELECT id, team_id AS teamId, slack_user_id AS slackUserId, next_attempt_at AS at
       FROM notify_outbox
      WHERE status = 'pending' AND team_id = @team AND next_attempt_at <= @now
      ORDER BY next_attempt_at, id LIMIT @limit`,
  );
  // 'sending' rows are few (those in flight): walking them all is fine.
  const dueAbandoned = db.prepare<DueParams, DueSql>(
    `SELECT id, team_id AS teamId, slack_user_id AS slackUserId, next_attempt_at AS at
       FROM notify_outbox
      WHERE status = 'sending' AND claimed_until <= @now
        AND team_id NOT IN (SELECT value FROM json_each(@exclude))
      ORDER BY claimed_until, id LIMIT @limit`,
  );
  const claimRow = db.prepare<
    [{ id: number; now: number; until: number; at: string; holder: string | null }],
    Row
  >(
    `UPDATE notify_outbox SET
       uncertain = CASE WHEN status = 'sending' THEN 1 ELSE uncertain END,
       status = 'sending', claimed_until = @until, claimed_by = @holder,
       attempts = attempts + 1, updated_at = @at
     WHERE id = @id AND ((status = 'pending' AND next_attempt_at <= @now)
                      OR (status = 'sending' AND claimed_until <= @now))
     RETURNING *`,
  );
  const renew = db.prepare<[number, string, string], { id: number }>(
    `UPDATE notify_outbox SET claimed_until = ?
      WHERE status = 'sending' AND claimed_by = ?
        AND id IN (SELECT value FROM json_each(?)) RETURNING id`,
  );
  const nextPending = db.prepare<[string], { at: number | null }>(
    `SELECT MIN(next_attempt_at) AS at FROM notify_outbox
      WHERE status = 'pending' AND team_id = ?`,
  );
  const nextAbandoned = db.prepare<[string], { at: number | null }>(
    `SELECT MIN(claimed_until) AS at FROM notify_outbox
      WHERE status = 'sending' AND team_id NOT IN (SELECT value FROM json_each(?))`,
  );
  const release = db.prepare(
    `UPDATE notify_outbox SET next_attempt_at = ?, updated_at = ?
      WHERE id = ? AND status = 'pending'`,
  );
  const sent = db.prepare(
    `UPDATE notify_outbox SET status = 'sent', message_ts = ?, dm_channel = COALESCE(?, dm_channel),
       sent_at = ?, updated_at = ?, claimed_until = NULL, last_error = NULL, uncertain = 0
     WHERE id = ?`,
  );
  const ended = db.prepare(
    `UPDATE notify_outbox SET status = ?, last_error = ?, updated_at = ?, claimed_until = NULL
      WHERE id = ?`,
  );
  const requeue = db.prepare(
    `UPDATE notify_outbox SET status = 'pending', next_attempt_at = ?, claimed_until = NULL,
       attempts = MAX(attempts - 1, 0), updated_at = ?
     WHERE id = ? AND status = 'sending'`,
  );
  const failTeam = db.prepare(
    `UPDATE notify_outbox SET status = 'failed', last_error = ?, updated_at = ?
      WHERE team_id = ? AND status = 'pending'`,
  );
  const reschedule = db.prepare(
    `UPDATE notify_outbox SET status = 'pending', next_attempt_at = ?, last_error = ?,
       uncertain = MAX(uncertain, ?), claimed_until = NULL, updated_at = ?,
       attempts = MAX(attempts - ?, 0)
     WHERE id = ?`,
  );
  const byStatus = db.prepare<[string], { status: OutboxStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM notify_outbox WHERE team_id = ? GROUP BY status',
  );
  const allByStatus = db.prepare<[], { status: OutboxStatus; n: number }>(
    'SELECT status, COUNT(*) AS n FROM notify_outbox GROUP BY status',
  );
  const oldestQueued = db.prepare<[], { at: string | null }>(
    "SELECT min(created_at) AS at FROM notify_outbox WHERE status IN ('pending', 'sending')",
  );
  const failures = db.prepare<[string, number], Row>(
    `SELECT * FROM notify_outbox WHERE team_id = ? AND status = 'failed'
      ORDER BY updated_at DESC, id DESC LIMIT ?`,
  );

  const toParams = (r: NewOutboxRow, now: number) => ({
    team_id: r.teamId,
    task_id: r.taskId,
    service_user_id: r.serviceUserId,
    service_user_email: r.serviceUserEmail?.toLowerCase() ?? null,
    service_user_name: r.serviceUserName ?? null,
    source: r.source,
    actor_slack_user_id: r.actorSlackUserId ?? null,
    actor_service_user_id: r.actorServiceUserId ?? null,
    creator_label: r.creatorLabel ?? null,
    task_name: r.taskName,
    project_id: r.projectId ?? null,
    project_name: r.projectName ?? null,
    due_date: r.dueDate ?? null,
    priority: r.priority ?? null,
    slack_user_id: r.slackUserId ?? null,
    status: r.status ?? 'pending',
    next_attempt_at: r.notBefore ?? now,
    marker: randomBytes(12).toString('hex'),
    last_error: r.lastError ?? null,
    message: r.message ?? null,
    created_at: iso(now),
    updated_at: iso(now),
  });

  const enqueue = db.transaction((rows: NewOutboxRow[], mode: 'ignore' | 'slack', now: number) => {
    const stmt = mode === 'slack' ? insertSlack : insertIgnore;
    return rows.map((r) => {
      stmt.run(toParams(r, now));
      return fromRow(byKey.get(r.teamId, r.taskId, r.serviceUserId)!);
    });
  });

  const defer = db.transaction((rows: readonly { id: number; at: number }[], now: number) => {
    for (const r of rows) release.run(r.at, iso(now), r.id);
  });
  /** The teams with pending rows, less `exclude`. */
  const readyTeams = (exclude: readonly string[]) =>
    pendingTeams
      .all()
      .map((t) => t.id)
      .filter((t) => !exclude.includes(t));
  const dueRow = ({ id, teamId, slackUserId }: DueSql): DueRow =>
    slackUserId === null ? { id, teamId } : { id, teamId, slackUserId };

  const counts = (rows: { status: OutboxStatus; n: number }[]) => {
    const out: Record<OutboxStatus, number> = {
      pending: 0,
      sending: 0,
      sent: 0,
      failed: 0,
      skipped: 0,
    };
    for (const r of rows) out[r.status] = r.n;
    return out;
  };

  // One statement per set of columns updated together (a handful), prepared once.
  const updates = new Map<string, Database.Statement>();

  return {
    ...changeSignal(),
    enqueue: (rows, mode, now = Date.now()) => enqueue(rows, mode, now),
    get: (id) => {
      const r = byId.get(id);
      return r ? fromRow(r) : undefined;
    },
    forTask: (teamId, taskId) => byTask.all(teamId, taskId).map(fromRow),
    due(now, limit, excludeTeams = []) {
      const abandoned = dueAbandoned.all({ now, exclude: JSON.stringify(excludeTeams), limit });
      const pending = readyTeams(excludeTeams).flatMap((team) =>
        duePending.all({ team, now, limit }),
      );
      return [...abandoned, ...pending]
        .sort((a, b) => a.at - b.at || a.id - b.id)
        .slice(0, limit)
        .map(dueRow);
    },
    claim(id, now, leaseMs, holder) {
      const r = claimRow.get({
        id,
        now,
        until: now + leaseMs,
        at: iso(now),
        holder: holder ?? null,
      });
      return r ? fromRow(r) : undefined;
    },
    renew: (ids, holder, until) =>
      ids.length ? renew.all(until, holder, JSON.stringify(ids)).map((r) => r.id) : [],
    nextDueAt(excludeTeams = []) {
      const times = [
        nextAbandoned.get(JSON.stringify(excludeTeams))?.at,
        ...readyTeams(excludeTeams).map((team) => nextPending.get(team)?.at),
      ].filter((t): t is number => typeof t === 'number');
      return times.length ? Math.min(...times) : undefined;
    },
    update(id, fields) {
      const sets: string[] = [];
      const params: (string | null)[] = [];
      for (const [key, value] of Object.entries(fields)) {
        const column = FIELD_COLUMNS[key];
        if (!column || value === undefined) continue;
        sets.push(`${column} = ?`);
        params.push(key === 'serviceUserEmail' ? String(value).toLowerCase() : String(value));
      }
      if (!sets.length) return;
      const assignments = sets.join(', ');
      let stmt = updates.get(assignments);
      if (!stmt) {
        stmt = db.prepare(`UPDATE notify_outbox SET ${assignments}, updated_at = ? WHERE id = ?`);
        updates.set(assignments, stmt);
      }
      stmt.run(...params, iso(Date.now()), id);
    },
    release: (id, now = Date.now()) => void release.run(now, iso(now), id),
    defer: (rows, now = Date.now()) => {
      if (rows.length) defer(rows, now);
    },
    requeue: (id, at, now = Date.now()) => void requeue.run(at, iso(now), id),
    markSent: (id, result, now = Date.now()) =>
      void sent.run(result.ts ?? null, result.channel ?? null, iso(now), iso(now), id),
    markFailed: (id, reason, now = Date.now()) =>
      void ended.run('failed', clip(reason), iso(now), id),
    markSkipped: (id, reason, now = Date.now()) =>
      void ended.run('skipped', clip(reason), iso(now), id),
    failPending: (teamId, reason, now = Date.now()) =>
      failTeam.run(clip(reason), iso(now), teamId).changes,
    reschedule: (id, at, error, uncertain, now = Date.now(), refund = false) =>
      void reschedule.run(at, clip(error), uncertain ? 1 : 0, iso(now), refund ? 1 : 0, id),
    summary(teamId, recent = 5) {
      return {
        ...counts(byStatus.all(teamId)),
        recentFailures: failures.all(teamId, recent).map(fromRow),
      };
    },
    counts: () => counts(allByStatus.all()),
    oldestQueuedAt: () => {
      const at = oldestQueued.get()?.at;
      return at ? Date.parse(at) : undefined;
    },
  };
}

// ── Service events already taken in ─────────────────────────────────────────

export interface SeenEventsStore {
  /** True the first time an event id is offered; false for a replay. */
  markSeen(eventId: string, now?: number): Promise<boolean>;
  /** Forgets ids older than `olderThanMs`; returns how many. */
  prune(olderThanMs: number, now?: number): Promise<number>;
}

export function seenEventsStore(db: Database.Database): Sync<SeenEventsStore> {
  const insert = db.prepare(
    'INSERT INTO notify_seen_events (event_id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const prune = db.prepare('DELETE FROM notify_seen_events WHERE seen_at < ?');
  return {
    markSeen: (eventId, now = Date.now()) => insert.run(eventId, now).changes === 1,
    prune: (olderThanMs, now = Date.now()) => prune.run(now - olderThanMs).changes,
  };
}
