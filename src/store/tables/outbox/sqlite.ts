/** outbox on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import { changeSignal } from './change-signal.js';
import type { DueRow, NewOutboxRow, OutboxStatus, OutboxStore } from './contract.js';
import { clip, FIELD_COLUMNS, fromRow, iso, type Row } from './rows.js';

type DueParams = [{ now: number; exclude: string; limit: number }];

type DueSql = { id: number; teamId: string; slackUserId: string | null; at: number };

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
