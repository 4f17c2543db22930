/**
 * notify_held and notify_bursts on PostgreSQL: DMs held during quiet hours or a burst
 * (sqlite.ts, statement for statement). Releasing deletes the due rows with RETURNING inside one transaction, so of two
 * instances releasing at once each held DM is released by one of them.
 */
import { named, type Sql } from '../../pg/db.js';
import type { OutboxStore } from '../outbox/contract.js';
import { pgOutboxStore } from '../outbox/pg.js';
import { type HeldDm, type HeldDmsStore, REASONS } from './contract.js';
import {
  burstHold,
  COUNT_IN_BURST,
  combinedRow,
  fromRow,
  heldParams,
  INSERT_HELD,
  type Row,
} from './rows.js';

const SET_STATUS = `UPDATE notify_outbox SET status = $1, last_error = $2, next_attempt_at = $3,
    claimed_until = NULL, updated_at = $4 WHERE id = $5`;

/** `outbox`: the store's own, told (changed) when released DMs are queued. */
export function pgHeldDmsStore(sql: Sql, outbox: Pick<OutboxStore, 'changed'>): HeldDmsStore {
  return {
    hold: (dm, now = Date.now()) =>
      sql.tx(async (tx) => {
        const at = new Date(now).toISOString();
        const reason = REASONS[dm.cause ?? 'quiet'].held;
        await tx.run(SET_STATUS, ['skipped', reason, now, at, dm.outboxId]);
        await tx.run(INSERT_HELD, heldParams(dm));
      }),
    heldFor: async (teamId, slackUserId) =>
      (
        await sql.rows<Row>(
          named(
            'held-dms.heldFor',
            'SELECT * FROM notify_held WHERE team_id = $1 AND slack_user_id = $2 ORDER BY outbox_id',
          ),
          [teamId, slackUserId],
        )
      ).map(fromRow),
    async nextReleaseAt() {
      const r = await sql.row<{ at: number | null }>(
        named('held-dms.nextReleaseAt', 'SELECT min(release_at) AS at FROM notify_held'),
      );
      return r?.at ?? undefined;
    },
    async release(due, combine, now = Date.now()) {
      const queued = await sql.tx(async (tx) => {
        const at = new Date(now).toISOString();
        const rows = await tx.rows<Row>(
          named('held-dms.release', 'DELETE FROM notify_held WHERE release_at <= $1 RETURNING *'),
          [due],
        );
        const groups = new Map<string, HeldDm[]>();
        for (const r of rows.map(fromRow).sort((a, b) => a.outboxId - b.outboxId)) {
          const key = `${r.teamId}\n${r.slackUserId}`;
          groups.set(key, [...(groups.get(key) ?? []), r]);
        }
        for (const held of groups.values()) {
          const [first] = held;
          if (!first) continue;
          if (held.length === 1) {
            await tx.run(SET_STATUS, ['pending', null, now, at, first.outboxId]);
            continue;
          }
          for (const h of held) {
            const reason = REASONS[h.cause ?? 'quiet'].combined;
            await tx.run(SET_STATUS, ['skipped', reason, now, at, h.outboxId]);
          }
          await pgOutboxStore(tx).enqueue([combinedRow(held, combine)], 'ignore', now);
        }
        return groups.size;
      });
      if (queued) outbox.changed();
      return queued;
    },
    reschedule: (teamId, slackUserId, releaseAt) =>
      sql.run(
        named(
          'held-dms.reschedule',
          'UPDATE notify_held SET release_at = $1 WHERE team_id = $2 AND slack_user_id = $3',
        ),
        [releaseAt, teamId, slackUserId],
      ),
    async countInBurst(teamId, slackUserId, now, rule) {
      const window = await sql.row<{ window_start: number | string; count: number }>(
        COUNT_IN_BURST,
        [teamId, slackUserId, now, rule.windowMs],
      );
      return burstHold(window, rule);
    },
    deleteTeam: (teamId) =>
      sql.tx(async (tx) => {
        await tx.run(named('held-dms.deleteTeam', 'DELETE FROM notify_bursts WHERE team_id = $1'), [
          teamId,
        ]);
        return tx.run(
          named('held-dms.deleteTeam.2', 'DELETE FROM notify_held WHERE team_id = $1'),
          [teamId],
        );
      }),
  };
}
