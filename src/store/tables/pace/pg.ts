/**
 * team_pace and channel_pace on PostgreSQL: the instance that paces a team holds a LEASE on
 * it and changes its pace in memory, with no round trip per DM; everyone else waits for the
 * lease to end (contract.ts).
 *
 * - A change of a team not held here is ONE statement (./pg-statements.ts), no transaction:
 *   the rules run on the state and channels this instance last saw, and the result is
 *   written only while the team's row is still at that version and no other instance
 *   holds it; it takes the lease (LEASE_MS) when it changes anything. When it does not
 *   apply, the statement answers what is there now (the row and every busy channel) and the
 *   rules run again on that — or, when another instance holds the team, on a copy paused
 *   until its lease ends, and nothing is written.
 * - While the lease has more than RENEW_MS left, changes are made in memory. The next one
 *   after that writes everything changed since and renews the lease; `settle` writes it and
 *   lets the lease go (the worker settles a team once it goes quiet here), or renews it
 *   (`keep`: a quiet team waiting for its own pace here).
 * - Why that is safe: a holder hands out slots only while its lease has RENEW_MS left, more
 *   than a channel's second plus the horizon slots are reserved within, so if it crashes
 *   every send it started or reserved, and the second each took of its channel, is over
 *   before another instance can take the team. What it had not written (a few accepted
 *   sends counted, the pace's next slot) is bookkeeping the rules rebuild. Every write is
 *   still checked against the version, so a holder whose lease ran out (a long stall) and
 *   was taken over writes nothing.
 * - The view of a team's channels is whole as of its version (a statement that does not
 *   apply answers all the team's channels; a lease is only ever taken on such a view): a
 *   channel this instance does not know of is free.
 */
import { randomUUID } from 'node:crypto';
import type { Sql } from '../../pg/db.js';
import type { PaceChanger, PaceStore, TeamPaceState } from './contract.js';
import {
  BLOCKED,
  type ChangeRow,
  INSERT,
  SWEEP_CHANNELS,
  SWEEP_TEAMS,
  UPDATE,
} from './pg-statements.js';
import { CHANNEL_KEEP_MS, readState, TEAM_KEEP_MS } from './rows.js';

/** How long a lease lasts from its last renewal. */
export const LEASE_MS = 4_000;
/**
 * Changes are made in memory while the lease has at least this left (see above: more than a
 * channel's 1.05 s plus the worker's 200 ms of reserved slots); the next one renews it.
 */
export const RENEW_MS = 2_000;

export interface PgPaceOptions {
  /** This store's id as a lease holder (default: a new random one). */
  holder?: string;
  leaseMs?: number;
  renewMs?: number;
  /** The clock leases are kept by (tests). */
  clock?: () => number;
}

/** What this instance knows of a team. */
interface Team {
  /** The row's version as last written or read (0: no row; -1: never read). */
  version: number;
  /** As read, or as changed here since while the lease is held. */
  state: TeamPaceState;
  /** Busy channels' next free moments (whole as of `version`) and those moved here since. */
  channels: Map<string, number>;
  /** Channels moved here and not written yet (while held). */
  moved: Set<string>;
  /** Changed here since the last write (while held). */
  dirty: boolean;
  /** This store's lease's end (0: not held here). */
  heldUntil: number;
  /** Until when the team's sends are blocked, as of the last change here. */
  blockedUntil: number;
}

/** Channels of a team remembered before the long-free ones are forgotten. */
const MAX_CHANNELS = 1_000;

/** Two instances changing one team at once both go on; this many misses means a bug. */
const MAX_TRIES = 50;

export function pgPaceStore(sql: Sql, options: PgPaceOptions = {}): PaceStore {
  const holder = options.holder ?? randomUUID();
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const renewMs = options.renewMs ?? RENEW_MS;
  const clock = options.clock ?? Date.now;
  const teams = new Map<string, Team>();
  const teamOf = (teamId: string): Team => {
    let t = teams.get(teamId);
    if (!t) {
      t = {
        version: -1,
        state: {},
        channels: new Map(),
        moved: new Set(),
        dirty: false,
        heldUntil: 0,
        blockedUntil: 0,
      };
      teams.set(teamId, t);
    }
    return t;
  };

  // This instance's changes to one team go one after the other: run at once, they would all
  // start from the same version and all but one miss (a worker sends several DMs at a time).
  const queues = new Map<string, Promise<unknown>>();
  const inTurn = <R>(teamId: string, work: () => Promise<R> | R): Promise<R> => {
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

  const momentsOf = (t: Team, names: readonly string[]) =>
    new Map(names.map((c) => [c, t.channels.get(c) ?? 0]));

  /** Whole milliseconds (a learned pace spaces sends by fractions of one) that moved. */
  const movedOf = (t: Team, moments: Map<string, number>): [string, number][] =>
    [...moments]
      .map(([c, at]): [string, number] => [c, Math.ceil(at)])
      .filter(([c, at]) => at !== (t.channels.get(c) ?? 0));

  /** Writes the state, the channels moved and the lease (until 0: let go), if still free. */
  const write = (
    teamId: string,
    t: Team,
    now: number,
    state: string,
    blockedUntil: number,
    take: boolean,
    until: number,
    moved: readonly [string, number][],
  ) => {
    const writes = new Map<string, number>();
    for (const c of t.moved) writes.set(c, t.channels.get(c) ?? 0);
    for (const [c, at] of moved) writes.set(c, at);
    const params = [
      teamId,
      t.version,
      now,
      state,
      Math.ceil(blockedUntil),
      holder,
      until,
      take,
      [...writes.keys()],
      [...writes.values()],
    ];
    // A new row's version: never one an instance may still hold for a forgotten row.
    return sql.row<ChangeRow>(
      t.version <= 0 ? INSERT : UPDATE,
      t.version <= 0 ? [...params, now] : params,
    );
  };

  /** The change was written: this is the team now. */
  const wrote = (t: Team, version: number, now: number, moved: readonly [string, number][]) => {
    t.version = version;
    for (const [c, at] of moved) t.channels.set(c, at);
    t.moved.clear();
    t.dirty = false;
    // Bounded memory: channels free for as long as the sweep keeps them are free whoever
    // looks (only then: the rules' clock is not this one in tests).
    if (t.channels.size > MAX_CHANNELS) {
      for (const [c, at] of t.channels) if (at < now - CHANNEL_KEEP_MS) t.channels.delete(c);
    }
  };

  /**
   * The change did not apply: what is there now (nothing changed here is kept). Returns the
   * end of another instance's lease on the team (0: none).
   */
  const reread = (t: Team, row: ChangeRow | undefined, now: number): number => {
    t.version = row?.version ?? 0;
    t.state = row?.state ? readState(row.state) : {};
    const names = row?.channels ?? [];
    t.channels = new Map(names.map((c, i) => [c, row?.ready_at?.[i] ?? 0]));
    t.moved.clear();
    t.dirty = false;
    t.heldUntil = 0;
    const until = row?.held_until ?? 0;
    return row?.holder && row.holder !== holder && until > now ? until : 0;
  };

  const change = async <R>(teamId: string, names: readonly string[], fn: PaceChanger<R>) => {
    for (let tries = 1; ; tries++) {
      const t = teamOf(teamId);
      const now = clock();
      if (t.heldUntil - now >= renewMs) {
        // Held here: in memory, written with the renewal.
        const moments = momentsOf(t, names);
        const out = fn(t.state, moments);
        for (const [c, at] of movedOf(t, moments)) {
          t.channels.set(c, at);
          t.moved.add(c);
        }
        t.dirty = true;
        t.blockedUntil = Math.ceil(out.blockedUntil);
        return out.result;
      }
      const before = JSON.stringify(t.state);
      const state = structuredClone(t.state);
      const moments = momentsOf(t, names);
      const out = fn(state, moments);
      const after = JSON.stringify(state);
      const moved = movedOf(t, moments);
      // A change that changes nothing (a look at the pace) takes no lease; one held here
      // (running out, or run out) is renewed with what changed meanwhile.
      const take = t.heldUntil > 0 || t.moved.size > 0 || moved.length > 0 || after !== before;
      const until = take ? now + leaseMs : 0;
      const row =
        t.version < 0
          ? undefined
          : await write(teamId, t, now, after, out.blockedUntil, take, until, moved);
      if (row?.applied) {
        wrote(t, row.applied, now, moved);
        t.state = state;
        t.heldUntil = until;
        t.blockedUntil = Math.ceil(out.blockedUntil);
        return out.result;
      }
      // Never read, changed meanwhile, or held by another instance: start again from what
      // is there now (a team never read is read by a statement that cannot apply).
      const otherUntil = reread(
        t,
        row ?? (await sql.row<ChangeRow>(UPDATE, readOnly(teamId, now, holder))),
        now,
      );
      if (otherUntil > now) {
        // Held by another instance: it paces the team; here the team waits for its lease
        // (asked again at the next change: it may be settled before it ends).
        const copy = structuredClone(t.state);
        copy.pausedUntil = Math.max(copy.pausedUntil ?? 0, otherUntil);
        return fn(copy, momentsOf(t, names)).result;
      }
      if (tries >= MAX_TRIES) {
        throw new Error(`The DM pace of team ${teamId} kept changing under this instance.`);
      }
    }
  };

  const settle = async (teamId: string, keep: boolean) => {
    const t = teams.get(teamId);
    if (!t || t.heldUntil === 0) return;
    const now = clock();
    // Kept with nothing to write and the lease good for a while: nothing to do.
    if (keep && !t.dirty && t.heldUntil - now >= renewMs) return;
    const until = keep ? now + leaseMs : 0;
    const row = await write(
      teamId,
      t,
      now,
      JSON.stringify(t.state),
      t.blockedUntil,
      true,
      until,
      [],
    );
    if (row?.applied) {
      wrote(t, row.applied, now, []);
      t.heldUntil = until;
    } else {
      // Its lease ran out and another instance took the team: what is there now.
      reread(t, row, now);
    }
  };

  return {
    change: (teamId, names, fn) => inTurn(teamId, () => change(teamId, names, fn)),
    blocked: async (now) => {
      const rows = await sql.rows<{ teamId: string; until: number }>(BLOCKED, [now, holder]);
      // The teams held here are as this store has them (the rows are behind).
      const out = rows.filter((r) => !((teams.get(r.teamId)?.heldUntil ?? 0) > now));
      for (const [teamId, t] of teams) {
        if (t.heldUntil > now && t.blockedUntil > now) out.push({ teamId, until: t.blockedUntil });
      }
      return out;
    },
    settle: async (teamIds, options) => {
      const ids = teamIds ?? [...teams.keys()];
      await Promise.all(ids.map((id) => inTurn(id, () => settle(id, options?.keep ?? false))));
    },
    sweep: async (now) =>
      (await sql.run(SWEEP_CHANNELS, [now - CHANNEL_KEEP_MS])) +
      (await sql.run(SWEEP_TEAMS, [now - TEAM_KEEP_MS])),
  };
}

/** A statement that cannot apply (version -1): it only answers what is there. */
const readOnly = (teamId: string, now: number, holder: string) => [
  teamId,
  -1,
  now,
  '{}',
  0,
  holder,
  0,
  false,
  [],
  [],
];
