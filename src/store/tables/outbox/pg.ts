/**
 * notify_outbox on PostgreSQL: the DMs to send, one row per (team, task, person); the states,
 * leases and reconciling are those of sqlite.ts, statement for statement. A claim is one
 * UPDATE … RETURNING of the row locked with FOR UPDATE SKIP LOCKED while still claimable, so
 * of two workers racing for a row one gets it and the other moves on without waiting.
 */

import { named, type Sql } from '../../pg/db.js';
import { changeSignal } from './change-signal.js';
import type { DueRow, OutboxRow, OutboxStatus, OutboxStore } from './contract.js';
import { BY_KEY, fromRow, INSERT_IGNORE, INSERT_SLACK, type Row, toParams } from './pg-rows.js';
import { clip, FIELD_COLUMNS, iso } from './rows.js';

// The teams with pending rows, found by skipping through notify_outbox_team_due_id, one step
// per team, less the excluded ones ($1).
const READY_TEAMS = `WITH RECURSIVE teams(id) AS (
    SELECT min(team_id) FROM notify_outbox WHERE status = 'pending'
    UNION ALL
    SELECT (SELECT min(team_id) FROM notify_outbox WHERE status = 'pending' AND team_id > teams.id)
      FROM teams WHERE teams.id IS NOT NULL)
  SELECT id FROM teams WHERE id IS NOT NULL AND id <> ALL($1::text[])`;

type DueSql = { id: number; team_id: string; slack_user_id: string | null; at: number };

const zeroCounts = (): Record<OutboxStatus, number> => ({
  pending: 0,
  sending: 0,
  sent: 0,
  failed: 0,
  skipped: 0,
});

export function pgOutboxStore(sql: Sql): OutboxStore {
  const ended = async (id: number, status: 'failed' | 'skipped', reason: string, now: number) => {
    await sql.run(
      named(
        'outbox.ended',
        `UPDATE notify_outbox SET status = $1, last_error = $2, updated_at = $3, claimed_until = NULL
        WHERE id = $4`,
      ),
      [status, clip(reason), iso(now), id],
    );
  };
  const counts = async (where: string, params: unknown[]) => {
    const out = zeroCounts();
    const rows = await sql.rows<{ status: OutboxStatus; n: number }>(
      `SELECT status, count(*) AS n FROM notify_outbox ${where} GROUP BY status`,
      params,
    );
    for (const r of rows) out[r.status] = r.n;
    return out;
  };

  return {
    ...changeSignal(),
    enqueue: (rows, mode, now = Date.now()) => {
      const text = mode === 'slack' ? INSERT_SLACK : INSERT_IGNORE;
      const queue = async (on: Sql) => {
        const out: OutboxRow[] = [];
        for (const r of rows) {
          const row =
            (await on.row<Row>(text, toParams(r, now))) ??
            (await on.row<Row>(BY_KEY, [r.teamId, r.taskId, r.serviceUserId]));
          if (row) out.push(fromRow(row));
        }
        return out;
      };
      // One row is one statement (and a read of the row it left as it was): no transaction.
      return rows.length > 1 ? sql.tx(queue) : queue(sql);
    },
    async get(id) {
      const r = await sql.row<Row>(
        named('outbox.get', 'SELECT * FROM notify_outbox WHERE id = $1'),
        [id],
      );
      return r ? fromRow(r) : undefined;
    },
    forTask: async (teamId, taskId) =>
      (
        await sql.rows<Row>(
          named(
            'outbox.forTask',
            'SELECT * FROM notify_outbox WHERE team_id = $1 AND task_id = $2 ORDER BY id',
          ),
          [teamId, taskId],
        )
      ).map(fromRow),
    async due(now, limit, excludeTeams = []) {
      // 'sending' rows are few (those in flight): walking them all is fine. Each ready team's
      // pending rows are one index range, read in due order.
      const rows = await sql.rows<DueSql>(
        `(SELECT id, team_id, slack_user_id, next_attempt_at AS at FROM notify_outbox
           WHERE status = 'sending' AND claimed_until <= $2 AND team_id <> ALL($1::text[])
           ORDER BY claimed_until, id LIMIT $3)
         UNION ALL
         SELECT d.* FROM (${READY_TEAMS}) t CROSS JOIN LATERAL (
           SELECT id, team_id, slack_user_id, next_attempt_at AS at FROM notify_outbox
            WHERE status = 'pending' AND team_id = t.id AND next_attempt_at <= $2
            ORDER BY next_attempt_at, id LIMIT $3) d`,
        [excludeTeams, now, limit],
      );
      return rows
        .sort((a, b) => a.at - b.at || a.id - b.id)
        .slice(0, limit)
        .map(
          (r): DueRow =>
            r.slack_user_id === null
              ? { id: r.id, teamId: r.team_id }
              : { id: r.id, teamId: r.team_id, slackUserId: r.slack_user_id },
        );
    },
    async claim(id, now, leaseMs, holder) {
      // The row is locked with SKIP LOCKED: an instance claiming it this very moment is not
      // waited for (its claim wins); the lock is held only by this one statement.
      const r = await sql.row<Row>(
        named(
          'outbox.claim',
          `UPDATE notify_outbox SET
           uncertain = CASE WHEN status = 'sending' THEN true ELSE uncertain END,
           status = 'sending', claimed_until = $3, claimed_by = $5, attempts = attempts + 1,
           updated_at = $4
         WHERE id = (SELECT id FROM notify_outbox
                      WHERE id = $1 AND ((status = 'pending' AND next_attempt_at <= $2)
                                      OR (status = 'sending' AND claimed_until <= $2))
                      FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        ),
        [id, now, now + leaseMs, iso(now), holder ?? null],
      );
      return r ? fromRow(r) : undefined;
    },
    renew: async (ids, holder, until) =>
      ids.length
        ? (
            await sql.rows<{ id: number }>(
              named(
                'outbox.renew',
                `UPDATE notify_outbox SET claimed_until = $1
                WHERE status = 'sending' AND claimed_by = $2 AND id = ANY($3::bigint[])
                RETURNING id`,
              ),
              [until, holder, ids],
            )
          ).map((r) => r.id)
        : [],
    async nextDueAt(excludeTeams = []) {
      const r = await sql.row<{ at: number | null }>(
        `SELECT least(
           (SELECT min(claimed_until) FROM notify_outbox
             WHERE status = 'sending' AND team_id <> ALL($1::text[])),
           (SELECT min(p.at) FROM (${READY_TEAMS}) t CROSS JOIN LATERAL (
              SELECT min(next_attempt_at) AS at FROM notify_outbox
               WHERE status = 'pending' AND team_id = t.id) p)) AS at`,
        [excludeTeams],
      );
      return r?.at ?? undefined;
    },
    async update(id, fields) {
      const sets: string[] = [];
      const params: string[] = [];
      for (const [key, value] of Object.entries(fields)) {
        const column = FIELD_COLUMNS[key];
        if (!column || value === undefined) continue;
        params.push(key === 'serviceUserEmail' ? String(value).toLowerCase() : String(value));
        sets.push(`${column} = $${params.length}`);
      }
      if (!sets.length) return;
      await sql.run(
        `UPDATE notify_outbox SET ${sets.join(', ')}, updated_at = $${params.length + 1}
          WHERE id = $${params.length + 2}`,
        [...params, iso(Date.now()), id],
      );
    },
    async release(id, now = Date.now()) {
      await sql.run(
        named(
          'outbox.release',
          `UPDATE notify_outbox SET next_attempt_at = $1, updated_at = $2
          WHERE id = $3 AND status = 'pending'`,
        ),
        [now, iso(now), id],
      );
    },
    async defer(rows, now = Date.now()) {
      if (!rows.length) return;
      await sql.run(
        named(
          'outbox.defer',
          `UPDATE notify_outbox o SET next_attempt_at = v.at, updated_at = $1
           FROM unnest($2::bigint[], $3::bigint[]) AS v(id, at)
          WHERE o.id = v.id AND o.status = 'pending'`,
        ),
        [iso(now), rows.map((r) => r.id), rows.map((r) => r.at)],
      );
    },
    async requeue(id, at, now = Date.now()) {
      await sql.run(
        named(
          'outbox.requeue',
          `UPDATE notify_outbox SET status = 'pending', next_attempt_at = $1, claimed_until = NULL,
           attempts = greatest(attempts - 1, 0), updated_at = $2
         WHERE id = $3 AND status = 'sending'`,
        ),
        [at, iso(now), id],
      );
    },
    async markSent(id, result, now = Date.now()) {
      await sql.run(
        named(
          'outbox.markSent',
          `UPDATE notify_outbox SET status = 'sent', message_ts = $1,
           dm_channel = COALESCE($2, dm_channel), sent_at = $3, updated_at = $3,
           claimed_until = NULL, last_error = NULL, uncertain = false
         WHERE id = $4`,
        ),
        [result.ts ?? null, result.channel ?? null, iso(now), id],
      );
    },
    markFailed: (id, reason, now = Date.now()) => ended(id, 'failed', reason, now),
    markSkipped: (id, reason, now = Date.now()) => ended(id, 'skipped', reason, now),
    failPending: (teamId, reason, now = Date.now()) =>
      sql.run(
        named(
          'outbox.failPending',
          `UPDATE notify_outbox SET status = 'failed', last_error = $1, updated_at = $2
          WHERE team_id = $3 AND status = 'pending'`,
        ),
        [clip(reason), iso(now), teamId],
      ),
    async reschedule(id, at, error, uncertain, now = Date.now(), refund = false) {
      await sql.run(
        named(
          'outbox.reschedule',
          `UPDATE notify_outbox SET status = 'pending', next_attempt_at = $1, last_error = $2,
           uncertain = uncertain OR $3, claimed_until = NULL, updated_at = $4,
           attempts = greatest(attempts - $5, 0)
         WHERE id = $6`,
        ),
        [at, clip(error), uncertain, iso(now), refund ? 1 : 0, id],
      );
    },
    async summary(teamId, recent = 5) {
      const failures = await sql.rows<Row>(
        named(
          'outbox.summary',
          `SELECT * FROM notify_outbox WHERE team_id = $1 AND status = 'failed'
          ORDER BY updated_at DESC, id DESC LIMIT $2`,
        ),
        [teamId, recent],
      );
      return {
        ...(await counts('WHERE team_id = $1', [teamId])),
        recentFailures: failures.map(fromRow),
      };
    },
    counts: () => counts('', []),
    async oldestQueuedAt() {
      const r = await sql.row<{ at: string | null }>(
        "SELECT min(created_at) AS at FROM notify_outbox WHERE status IN ('pending', 'sending')",
      );
      return r?.at ? Date.parse(r.at) : undefined;
    },
  };
}
