/**
 * team_pace and channel_pace on PostgreSQL (see contract.ts). A change is one short
 * transaction: the team's row is made to exist and locked in the same statement that reads it
 * (and the channel's next free moment), so every instance's changes to a team — its pace and
 * its channels' — happen one after the other.
 */

import type { Sql } from '../../pg/db.js';
import type { PaceChanger, PaceStore, TeamPaceState } from './contract.js';

const CHANNEL_KEEP_MS = 60_000;

const TEAM_KEEP_MS = 3_600_000;

export function pgPaceStore(sql: Sql): PaceStore {
  return {
    change: <R>(teamId: string, channel: string | undefined, fn: PaceChanger<R>) =>
      sql.tx(async (tx) => {
        const locked = await tx.row<{ state: string; ready_at: number | null }>(
          `WITH t AS (
             INSERT INTO team_pace (team_id, state, blocked_until) VALUES ($1, '{}', 0)
             ON CONFLICT (team_id) DO UPDATE SET team_id = excluded.team_id
             RETURNING state)
           SELECT t.state,
                  (SELECT ready_at FROM channel_pace WHERE team_id = $1 AND channel = $2) AS ready_at
             FROM t`,
          [teamId, channel ?? ''],
        );
        const before = locked?.state ?? '{}';
        const readyAt = channel ? (locked?.ready_at ?? 0) : 0;
        const state = JSON.parse(before) as TeamPaceState;
        const out = fn(state, readyAt);
        const after = JSON.stringify(state);
        if (after !== before) {
          await tx.run('UPDATE team_pace SET state = $2, blocked_until = $3 WHERE team_id = $1', [
            teamId,
            after,
            Math.ceil(out.blockedUntil),
          ]);
        }
        const channelAt = Math.ceil(out.channelReadyAt ?? readyAt);
        if (channel && channelAt !== readyAt) {
          await tx.run(
            `INSERT INTO channel_pace (team_id, channel, ready_at) VALUES ($1, $2, $3)
             ON CONFLICT (team_id, channel) DO UPDATE SET ready_at = excluded.ready_at`,
            [teamId, channel, channelAt],
          );
        }
        return out.result;
      }),
    blocked: (now) =>
      sql.rows<{ teamId: string; until: number }>(
        'SELECT team_id AS "teamId", blocked_until AS until FROM team_pace WHERE blocked_until > $1',
        [now],
      ),
    sweep: async (now) =>
      (await sql.run('DELETE FROM channel_pace WHERE ready_at < $1', [now - CHANNEL_KEEP_MS])) +
      (await sql.run(
        `DELETE FROM team_pace WHERE blocked_until < $1
            AND coalesce((state::jsonb #>> '{run,last}')::numeric, 0) < $1`,
        [now - TEAM_KEEP_MS],
      )),
  };
}
