/**
 * team_pace and channel_pace on SQLite: a change is one better-sqlite3 transaction (read,
 * change, write back), which nothing interleaves with on the one connection.
 */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { PaceChanger, PaceStore } from './contract.js';
import { CHANNEL_KEEP_MS, readState, TEAM_KEEP_MS } from './rows.js';

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
    <R>(teamId: string, channelIds: readonly string[], fn: PaceChanger<R>): R => {
      const state = readState(team.get(teamId)?.state ?? '{}');
      // As the rules will write it (the stored text may order its keys differently).
      const before = JSON.stringify(state);
      const seen = new Map(channelIds.map((c) => [c, channel.get(teamId, c)?.ready_at ?? 0]));
      const moments = new Map(seen);
      const out = fn(state, moments);
      const after = JSON.stringify(state);
      // An unpaced team's send changes nothing of the team: no write.
      // Whole milliseconds: a learned pace spaces sends by fractions of one.
      if (after !== before) putTeam.run(teamId, after, Math.ceil(out.blockedUntil));
      for (const [c, at] of moments) {
        const whole = Math.ceil(at);
        if (whole !== seen.get(c)) putChannel.run(teamId, c, whole);
      }
      return out.result;
    },
  );

  return {
    change: <R>(teamId: string, channelIds: readonly string[], fn: PaceChanger<R>) =>
      change(teamId, channelIds, fn) as R,
    blocked: (now) => blocked.all(now),
    // Every change was written in its transaction.
    settle: () => {},
    sweep: (now) =>
      sweepChannels.run(now - CHANNEL_KEEP_MS).changes +
      sweepTeams.run(now - TEAM_KEEP_MS, now - TEAM_KEEP_MS).changes,
  };
}
