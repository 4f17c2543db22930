/**
 * team_pace and channel_pace on PostgreSQL: a change is ONE statement, no transaction,
 * however many channels it names (the worker takes slots for several DMs in one). The store
 * keeps, per team, the state and version it last saw (and the channels' next free moments
 * seen at that version), runs the rules on them here, and sends the result in a statement
 * that applies only while the team's row is still at that version and every named channel
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
  /** The named channels' moments now, in the order named (0: free). */
  ready_at: number[] | null;
}

// $1 team, $2 the channels named, $3 version seen, $4 their moments seen (in order), $5 new
// state, $6 blocked until, $7 channels to write, $8 their new moments; $9 (UPDATE) whether
// anything changed, (INSERT) the new row's version.
// Each channel looked up by its key (a correlated subquery): a join here is planned, once
// for every array length, as a scan of channel_pace, whose cost grows with the table.
const READY_AT = `coalesce((SELECT p.ready_at FROM channel_pace p
                               WHERE p.team_id = $1 AND p.channel = c.channel), 0)`;
const CHANNELS_SEEN = `NOT EXISTS (
    SELECT 1 FROM unnest($2::text[], $4::bigint[]) AS c(channel, seen)
     WHERE ${READY_AT} <> c.seen)`;
const PUT_CHANNELS = `ch AS (
    INSERT INTO channel_pace (team_id, channel, ready_at)
    SELECT $1, c.channel, c.at FROM put, unnest($7::text[], $8::bigint[]) AS c(channel, at)
    ON CONFLICT (team_id, channel) DO UPDATE SET ready_at = excluded.ready_at)`;
const ANSWER = `SELECT put.version AS applied, t.state, t.version,
         ARRAY(SELECT ${READY_AT}::float8 FROM unnest($2::text[]) WITH ORDINALITY AS c(channel, i)
                ORDER BY c.i) AS ready_at
    FROM (SELECT 1) one LEFT JOIN put ON true LEFT JOIN team_pace t ON t.team_id = $1`;

/**
 * The team's row was seen at a version: change it only if it still is. A change that changes
 * nothing keeps the version (other instances' views stay good) but still takes the row's
 * lock and checks what it was decided on.
 */
const UPDATE = named(
  'pace-update-many',
  `WITH put AS (
     UPDATE team_pace SET state = $5, blocked_until = $6,
            version = version + CASE WHEN $9 THEN 1 ELSE 0 END
      WHERE team_id = $1 AND version = $3 AND ${CHANNELS_SEEN}
     RETURNING version), ${PUT_CHANNELS}
   ${ANSWER}`,
);

/** No row was seen: make it, unless another instance just did. */
const INSERT = named(
  'pace-insert-many',
  `WITH put AS (
     INSERT INTO team_pace (team_id, state, blocked_until, version)
     SELECT $1, $5, $6, $9 WHERE $3::bigint = 0 AND ${CHANNELS_SEEN}
     ON CONFLICT (team_id) DO NOTHING
     RETURNING version), ${PUT_CHANNELS}
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

  const change = async <R>(teamId: string, named: readonly string[], fn: PaceChanger<R>) => {
    for (let tries = 1; ; tries++) {
      const s = seenOf(teamId);
      const seenAt = named.map((c) => s.channels.get(c) ?? 0);
      const moments = new Map(named.map((c, i) => [c, seenAt[i] ?? 0]));
      const state = structuredClone(s.state);
      const out = fn(state, moments);
      const after = JSON.stringify(state);
      // Whole milliseconds: a learned pace spaces sends by fractions of one.
      const moved = [...moments]
        .map(([c, at]): [string, number] => [c, Math.ceil(at)])
        .filter(([c, at]) => at !== (s.channels.get(c) ?? 0));
      const params = [
        teamId,
        named,
        s.version,
        seenAt,
        after,
        Math.ceil(out.blockedUntil),
        moved.map(([c]) => c),
        moved.map(([, at]) => at),
      ];
      const row = await (s.version === 0
        ? // A new row's version: never one an instance may still hold for a forgotten row.
          sql.row<ChangeRow>(INSERT, [...params, Date.now()])
        : sql.row<ChangeRow>(UPDATE, [
            ...params,
            moved.length > 0 || after !== JSON.stringify(s.state),
          ]));
      if (row?.applied) {
        s.version = row.applied;
        s.state = state;
        // Bounded: a forgotten channel is taken as free and checked by the statement.
        if (s.channels.size + moved.length > MAX_CHANNELS) s.channels.clear();
        for (const [i, c] of named.entries()) s.channels.set(c, seenAt[i] ?? 0);
        for (const [c, at] of moved) s.channels.set(c, at);
        return out.result;
      }
      // Changed meanwhile (or forgotten by a sweep): start again from what is there now.
      seen.set(teamId, {
        version: row?.version ?? 0,
        state: row?.state ? readState(row.state) : {},
        channels: new Map(named.map((c, i) => [c, row?.ready_at?.[i] ?? 0])),
      });
      if (tries >= MAX_TRIES) {
        throw new Error(`The DM pace of team ${teamId} kept changing under this instance.`);
      }
    }
  };

  return {
    change: (teamId, channels, fn) => inTurn(teamId, () => change(teamId, channels, fn)),
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
