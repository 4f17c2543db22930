/**
 * team_pace and channel_pace on PostgreSQL: a change is ONE statement, no transaction. The
 * store keeps, per team, the state and version it last saw (and the channels' next free
 * moments seen at that version), runs the rules on them here, and sends the result in a
 * statement that applies only while the team's row is still at that version and the channel
 * still where it was seen; every change raises the version, so a change made meanwhile by
 * another instance (or this one) is never overwritten. When it does not apply, the statement
 * answers what is there now and the rules run again on that (rare: two instances sending for
 * one team at the same moment). The row lock the UPDATE takes makes instances' changes to a
 * team one after the other, as the transaction did; one round trip instead of five.
 */
import { named, type Sql } from '../../pg/db.js';
import type { PaceChanger, PaceStore, TeamPaceState } from './contract.js';
import { CHANNEL_KEEP_MS, readState, TEAM_KEEP_MS } from './rows.js';

/** What this instance last saw of a team (version 0: no row). */
interface Seen {
  version: number;
  state: TeamPaceState;
  /** Channels' next free moments as of `version` (0: free). */
  channels: Map<string, number>;
}

/** What the change statement answers: the new version when it applied, else what is there. */
interface ChangeRow {
  applied: number | null;
  state: string | null;
  version: number | null;
  ready_at: number | null;
}

// $1 team, $2 channel ('' for none), $3 version seen, $4 channel's moment seen, $5 new state,
// $6 blocked until, $7 channel's new moment, $8 whether to write it; $9 (UPDATE) whether
// anything changed, (INSERT) the new row's version.
const CHANNEL_SEEN = `coalesce((SELECT ready_at FROM channel_pace
                                 WHERE team_id = $1 AND channel = $2), 0) = $4`;
const PUT_CHANNEL = `ch AS (
    INSERT INTO channel_pace (team_id, channel, ready_at) SELECT $1, $2, $7 FROM put WHERE $8
    ON CONFLICT (team_id, channel) DO UPDATE SET ready_at = excluded.ready_at)`;
const ANSWER = `SELECT put.version AS applied, t.state, t.version,
         (SELECT ready_at FROM channel_pace WHERE team_id = $1 AND channel = $2) AS ready_at
    FROM (SELECT 1) one LEFT JOIN put ON true LEFT JOIN team_pace t ON t.team_id = $1`;

/**
 * The team's row was seen at a version: change it only if it still is. A change that changes
 * nothing keeps the version (other instances' views stay good) but still takes the row's
 * lock and checks what it was decided on.
 */
const UPDATE = named(
  'pace-update',
  `WITH put AS (
     UPDATE team_pace SET state = $5, blocked_until = $6,
            version = version + CASE WHEN $9 THEN 1 ELSE 0 END
      WHERE team_id = $1 AND version = $3 AND ${CHANNEL_SEEN}
     RETURNING version), ${PUT_CHANNEL}
   ${ANSWER}`,
);

/** No row was seen: make it, unless another instance just did. */
const INSERT = named(
  'pace-insert',
  `WITH put AS (
     INSERT INTO team_pace (team_id, state, blocked_until, version)
     SELECT $1, $5, $6, $9 WHERE $3::bigint = 0 AND ${CHANNEL_SEEN}
     ON CONFLICT (team_id) DO NOTHING
     RETURNING version), ${PUT_CHANNEL}
   ${ANSWER}`,
);

const BLOCKED = named(
  'pace-blocked',
  'SELECT team_id AS "teamId", blocked_until AS until FROM team_pace WHERE blocked_until > $1',
);

/** Channels remembered per team (a send's channel is usually new: one per person). */
const MAX_CHANNELS = 1_000;

/** Two instances changing one team at once both go on; this many misses means a bug. */
const MAX_TRIES = 50;

export function pgPaceStore(sql: Sql): PaceStore {
  const seen = new Map<string, Seen>();
  const seenOf = (teamId: string): Seen => {
    let s = seen.get(teamId);
    if (!s) {
      s = { version: 0, state: {}, channels: new Map() };
      seen.set(teamId, s);
    }
    return s;
  };

  // This instance's changes to one team go one after the other: run at once, they would all
  // start from the same version and all but one miss (a worker sends several DMs at a time).
  const queues = new Map<string, Promise<unknown>>();
  const inTurn = <R>(teamId: string, work: () => Promise<R>): Promise<R> => {
    const run = (queues.get(teamId) ?? Promise.resolve()).then(work, work);
    const settled = run.then(
      () => {},
      () => {},
    );
    queues.set(teamId, settled);
    void settled.then(() => {
      if (queues.get(teamId) === settled) queues.delete(teamId);
    });
    return run;
  };

  const change = async <R>(teamId: string, channel: string | undefined, fn: PaceChanger<R>) => {
    for (let tries = 1; ; tries++) {
      const s = seenOf(teamId);
      const readyAt = channel ? (s.channels.get(channel) ?? 0) : 0;
      const state = structuredClone(s.state);
      const out = fn(state, readyAt);
      const after = JSON.stringify(state);
      // Whole milliseconds: a learned pace spaces sends by fractions of one.
      const channelAt = Math.ceil(out.channelReadyAt ?? readyAt);
      const putChannel = channel !== undefined && channelAt !== readyAt;
      const params = [
        teamId,
        channel ?? '',
        s.version,
        readyAt,
        after,
        Math.ceil(out.blockedUntil),
        channelAt,
        putChannel,
      ];
      const row = await (s.version === 0
        ? // A new row's version: never one an instance may still hold for a forgotten row.
          sql.row<ChangeRow>(INSERT, [...params, Date.now()])
        : sql.row<ChangeRow>(UPDATE, [...params, putChannel || after !== JSON.stringify(s.state)]));
      if (row?.applied) {
        s.version = row.applied;
        s.state = state;
        if (channel) {
          // Bounded: a forgotten channel is taken as free and checked by the statement.
          if (s.channels.size >= MAX_CHANNELS) s.channels.clear();
          s.channels.set(channel, channelAt);
        }
        return out.result;
      }
      // Changed meanwhile (or forgotten by a sweep): start again from what is there now.
      seen.set(teamId, {
        version: row?.version ?? 0,
        state: row?.state ? readState(row.state) : {},
        channels: new Map(channel ? [[channel, row?.ready_at ?? 0]] : []),
      });
      if (tries >= MAX_TRIES) {
        throw new Error(`The DM pace of team ${teamId} kept changing under this instance.`);
      }
    }
  };

  return {
    change: (teamId, channel, fn) => inTurn(teamId, () => change(teamId, channel, fn)),
    blocked: (now) => sql.rows<{ teamId: string; until: number }>(BLOCKED, [now]),
    sweep: async (now) =>
      (await sql.run('DELETE FROM channel_pace WHERE ready_at < $1', [now - CHANNEL_KEEP_MS])) +
      (await sql.run(
        `DELETE FROM team_pace WHERE blocked_until < $1
            AND coalesce((state::jsonb #>> '{run,last}')::numeric, 0) < $1`,
        [now - TEAM_KEEP_MS],
      )),
  };
}
