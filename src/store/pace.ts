/**
 * team_pace and channel_pace: how fast each Slack team's DMs may go, and when each DM
 * channel may take its next message — in the database, so that every instance on it keeps
 * to ONE team limit and one message a second per channel (two instances must not each spend
 * the whole limit). The rules live with the worker (src/slack/notify/pacer.ts); here each
 * change is one transaction over the team's row and the channel's, so two instances'
 * changes never interleave.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

/** A team's pace as the rules keep it; plain data (stored as JSON). */
export interface TeamPaceState {
  /** A 429 that was the team's limit: no send starts before. */
  pausedUntil?: number;
  /** The pace learned from the last such 429: sends start `intervalMs` apart. */
  pace?: { intervalMs: number; nextAt: number; expiresAt: number };
  /** Sends Slack accepted since the team's sends last started flowing. */
  run?: { start: number; last: number; count: number };
  /**
   * The burst the pace was last learned from: sends that started before `since` (when its
   * 429 was taken for the team's limit) belong to it, whenever they are answered — an
   * accepted one adds to what it learned, a refused one only pauses.
   */
  burst?: { since: number; start: number; count: number; windowMs: number };
  /** The last refused send, while it may pair with one in another channel. */
  refusal?: { channel: string; at: number };
}

export interface PaceChange<R> {
  result: R;
  /** No send of the team starts before this (epoch ms; 0 = not blocked). */
  blockedUntil: number;
  /** The channel's next free moment, when it changed. */
  channelReadyAt?: number;
}

/** Given the team's state (changed in place) and the channel's next free moment (0: free). */
export type PaceChanger<R> = (team: TeamPaceState, channelReadyAt: number) => PaceChange<R>;

export interface PaceStore {
  /** Reads, changes and writes back a team's pace (and a channel's) in one transaction. */
  change<R>(teamId: string, channel: string | undefined, fn: PaceChanger<R>): Promise<R>;
  /** Teams whose sends may not start at `now`, with when they may. */
  blocked(now: number): Promise<{ teamId: string; until: number }[]>;
  /** Forgets channels free for a minute and teams idle for an hour; returns how many. */
  sweep(now: number): Promise<number>;
}

const CHANNEL_KEEP_MS = 60_000;
const TEAM_KEEP_MS = 3_600_000;

export function paceStore(db: Database.Database): Sync<PaceStore> {
  const team = db.prepare<[string], { state: string }>(
    'SELECT state FROM team_pace WHERE team_id = ?',
  );
  const channel = db.prepare<[string, string], { ready_at: number }>(
    'SELECT ready_at FROM channel_pace WHERE team_id = ? AND channel = ?',
  );
  const putTeam = db.prepare(
    `INSERT INTO team_pace (team_id, state, blocked_until) VALUES (?, ?, ?)
     ON CONFLICT (team_id) DO UPDATE SET state = excluded.state,
       blocked_until = excluded.blocked_until`,
  );
  const putChannel = db.prepare(
    `INSERT INTO channel_pace (team_id, channel, ready_at) VALUES (?, ?, ?)
     ON CONFLICT (team_id, channel) DO UPDATE SET ready_at = excluded.ready_at`,
  );
  const blocked = db.prepare<[number], { teamId: string; until: number }>(
    'SELECT team_id AS teamId, blocked_until AS until FROM team_pace WHERE blocked_until > ?',
  );
  const sweepChannels = db.prepare('DELETE FROM channel_pace WHERE ready_at < ?');
  const sweepTeams = db.prepare(
    `DELETE FROM team_pace WHERE blocked_until < ?
        AND COALESCE(json_extract(state, '$.run.last'), 0) < ?`,
  );

  const change = db.transaction(
    <R>(teamId: string, channelId: string | undefined, fn: PaceChanger<R>): R => {
      const before = team.get(teamId)?.state ?? '{}';
      const state = JSON.parse(before) as TeamPaceState;
      const readyAt = channelId ? (channel.get(teamId, channelId)?.ready_at ?? 0) : 0;
      const out = fn(state, readyAt);
      const after = JSON.stringify(state);
      // An unpaced team's send changes nothing of the team: no write.
      // Whole milliseconds: a learned pace spaces sends by fractions of one.
      if (after !== before) putTeam.run(teamId, after, Math.ceil(out.blockedUntil));
      const channelAt = Math.ceil(out.channelReadyAt ?? readyAt);
      if (channelId && channelAt !== readyAt) putChannel.run(teamId, channelId, channelAt);
      return out.result;
    },
  );

  return {
    change: <R>(teamId: string, channelId: string | undefined, fn: PaceChanger<R>) =>
      change(teamId, channelId, fn) as R,
    blocked: (now) => blocked.all(now),
    sweep: (now) =>
      sweepChannels.run(now - CHANNEL_KEEP_MS).changes +
      sweepTeams.run(now - TEAM_KEEP_MS, now - TEAM_KEEP_MS).changes,
  };
}
