/**
 * notify_held on PostgreSQL: DMs held during quiet hours (sqlite.ts, statement for
 * statement). Releasing deletes the due rows with RETURNING inside one transaction, so of two
 * instances releasing at once each held DM is released by one of them.
 */

import type { Sql } from '../../pg/db.js';
import type { OutboxStore } from '../outbox/contract.js';
import { pgOutboxStore } from '../outbox/pg.js';
import { HELD_REASON, type HeldDm, type HeldDmsStore, SENT_COMBINED } from './contract.js';
import { fromRow, type Row } from './rows.js';

const SET_STATUS = `UPDATE notify_outbox SET status = $1, last_error = $2, next_attempt_at = $3,
    claimed_until = NULL, updated_at = $4 WHERE id = $5`;

/** `outbox`: the store's own, told (changed) when released DMs are queued. */
export function pgHeldDmsStore(sql: Sql, outbox: Pick<OutboxStore, 'changed'>): HeldDmsStore {
  return {
    hold: (dm, now = Date.now()) =>
      sql.tx(async (tx) => {
        const at = new Date(now).toISOString();
        await tx.run(SET_STATUS, ['skipped', HELD_REASON, now, at, dm.outboxId]);
        await tx.run(
          `INSERT INTO notify_held (outbox_id, team_id, slack_user_id, release_at, summary)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (outbox_id) DO NOTHING`,
          [dm.outboxId, dm.teamId, dm.slackUserId, dm.releaseAt, dm.summary],
        );
      }),
    heldFor: async (teamId, slackUserId) =>
      (
        await sql.rows<Row>(
          'SELECT * FROM notify_held WHERE team_id = $1 AND slack_user_id = $2 ORDER BY outbox_id',
          [teamId, slackUserId],
        )
      ).map(fromRow),
    async nextReleaseAt() {
      const r = await sql.row<{ at: number | null }>(
        'SELECT min(release_at) AS at FROM notify_held',
      );
      return r?.at ?? undefined;
    },
    async release(due, combine, now = Date.now()) {
      const queued = await sql.tx(async (tx) => {
        const at = new Date(now).toISOString();
        const rows = await tx.rows<Row>(
          'DELETE FROM notify_held WHERE release_at <= $1 RETURNING *',
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
          for (const h of held)
            await tx.run(SET_STATUS, ['skipped', SENT_COMBINED, now, at, h.outboxId]);
          const releaseAt = Math.max(...held.map((h) => h.releaseAt));
          await pgOutboxStore(tx).enqueue(
            [
              {
                teamId: first.teamId,
                taskId: `quiet:${releaseAt}`,
                serviceUserId: `slack:${first.slackUserId}`,
                slackUserId: first.slackUserId,
                source: 'slack',
                taskName: `${held.length} notifications held during quiet hours`,
                message: combine(held),
              },
            ],
            'ignore',
            now,
          );
        }
        return groups.size;
      });
      if (queued) outbox.changed();
      return queued;
    },
    reschedule: (teamId, slackUserId, releaseAt) =>
      sql.run('UPDATE notify_held SET release_at = $1 WHERE team_id = $2 AND slack_user_id = $3', [
        releaseAt,
        teamId,
        slackUserId,
      ]),
    deleteTeam: (teamId) => sql.run('DELETE FROM notify_held WHERE team_id = $1', [teamId]),
  };
}
