/**
 * The statements of team_pace and channel_pace on PostgreSQL (the store: ./pg.ts). A change
 * is ONE statement, no transaction: it writes the team's state, the channels moved and the
 * lease, only while the team's row is still at the version the instance last saw and no
 * other instance holds it; when it does not apply it answers what is there now — the row,
 * and the team's channels (so the instance's view of them is whole: a channel it does not
 * know of is free).
 */
import { named } from '../../pg/db.js';

/** What a change answers: the new version when it applied, else what is there now. */
export interface ChangeRow {
  applied: number | null;
  state: string | null;
  version: number | null;
  holder: string | null;
  held_until: number | null;
  /** When it did not apply: the team's channels, with their next free moments. */
  channels: string[] | null;
  ready_at: number[] | null;
}

// $1 team, $2 version seen, $3 now, $4 new state, $5 blocked until, $6 holder (this
// instance), $7 the lease's end (0: let it go), $8 whether to take or keep the lease (a
// change that changes nothing takes none), $9 channels to write, $10 their new moments;
// (INSERT) $11 the new row's version.
const FREE_TO_CHANGE = `(holder IS NULL OR holder = $6 OR held_until <= $3)`;
const PUT_CHANNELS = `ch AS (
    INSERT INTO channel_pace (team_id, channel, ready_at)
    SELECT $1, c.channel, c.at FROM put, unnest($9::text[], $10::bigint[]) AS c(channel, at)
    ON CONFLICT (team_id, channel) DO UPDATE SET ready_at = excluded.ready_at)`;
// Only read when the change did not apply (an uncorrelated subquery runs on first use).
// Every channel of the team that is kept (one free for a minute is swept): whether one is
// busy is the rules' to say, by their clock.
const BUSY = `(SELECT p.channel, p.ready_at FROM channel_pace p
                WHERE p.team_id = $1 ORDER BY p.channel)`;
const ANSWER = `SELECT put.version AS applied, t.state, t.version, t.holder, t.held_until,
         CASE WHEN put.version IS NULL THEN ARRAY(SELECT b.channel FROM ${BUSY} b) END
           AS channels,
         CASE WHEN put.version IS NULL THEN ARRAY(SELECT b.ready_at::float8 FROM ${BUSY} b) END
           AS ready_at
    FROM (SELECT 1) one LEFT JOIN put ON true LEFT JOIN team_pace t ON t.team_id = $1`;

/** The team's row was seen at a version: change it only if it still is and is free here. */
export const UPDATE = named(
  'pace-update-leased',
  `WITH put AS (
     UPDATE team_pace SET state = $4, blocked_until = $5,
            version = version + CASE WHEN $8 THEN 1 ELSE 0 END,
            holder = CASE WHEN $8 THEN $6::text ELSE holder END,
            held_until = CASE WHEN $8 THEN $7::bigint ELSE held_until END
      WHERE team_id = $1 AND version = $2 AND ${FREE_TO_CHANGE}
     RETURNING version), ${PUT_CHANNELS}
   ${ANSWER}`,
);

/** No row was seen: make it, unless another instance just did. */
export const INSERT = named(
  'pace-insert-leased',
  `WITH put AS (
     INSERT INTO team_pace (team_id, state, blocked_until, version, holder, held_until)
     SELECT $1, $4, $5, $11, CASE WHEN $8 THEN $6::text END, CASE WHEN $8 THEN $7::bigint ELSE 0 END
      WHERE $2::bigint = 0 AND $3::bigint IS NOT NULL
     ON CONFLICT (team_id) DO NOTHING
     RETURNING version), ${PUT_CHANNELS}
   ${ANSWER}`,
);

/** Teams blocked by their pace, or held by another instance (until its lease ends). */
export const BLOCKED = named(
  'pace-blocked-leased',
  `SELECT team_id AS "teamId",
          GREATEST(blocked_until,
                   CASE WHEN holder IS DISTINCT FROM $2 THEN held_until ELSE 0 END) AS until
     FROM team_pace
    WHERE blocked_until > $1 OR (held_until > $1 AND holder IS DISTINCT FROM $2)`,
);

export const SWEEP_CHANNELS = 'DELETE FROM channel_pace WHERE ready_at < $1';
/** A team someone holds is not idle. */
export const SWEEP_TEAMS = `DELETE FROM team_pace WHERE blocked_until < $1 AND held_until < $1
    AND coalesce((state::jsonb #>> '{run,last}')::numeric, 0) < $1`;
