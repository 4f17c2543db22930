/**
 * team_pace and channel_pace: how fast each Slack team's DMs may go, and when each DM
 * channel may take its next message — in the database, so that every instance on it keeps
 * to ONE team limit and one message a second per channel (two instances must not each spend
 * the whole limit). The rules live with the worker (src/slack/notify/pacer.ts); here each
 * change is atomic over the team's row and the channels' it names, so two instances'
 * changes never interleave.
 *
 * On PostgreSQL the instance that changes a team takes a LEASE on it for a few seconds: its
 * changes are then made in memory (no round trip per DM) and written back when the lease is
 * renewed and when it is settled (the worker settles a team once it goes quiet here, and
 * every team at its stop). Meanwhile every other instance sees the team as blocked until the
 * lease ends (`blocked`), and a change it asks for is not made: the changer runs on a copy of
 * the team's state, paused until the lease ends, and what it changes is dropped. So one team
 * is paced by one instance at a time, and two instances still keep to one limit.
 */

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
}

/**
 * Given the team's state and the next free moments (epoch ms, 0: free) of the channels the
 * change names, both changed in place: a channel's moment written back when it moved.
 */
export type PaceChanger<R> = (team: TeamPaceState, channels: Map<string, number>) => PaceChange<R>;

export interface PaceStore {
  /**
   * Reads, changes and writes back a team's pace and the named channels' moments as one
   * change (several sends' worth at once: the worker takes slots for many DMs together).
   */
  change<R>(teamId: string, channels: readonly string[], fn: PaceChanger<R>): Promise<R>;
  /**
   * Teams whose sends may not start at `now`, with when they may (a team another instance
   * holds: until its lease ends).
   */
  blocked(now: number): Promise<{ teamId: string; until: number }[]>;
  /**
   * Writes back what this instance holds of these teams (all of them when omitted) and lets
   * the other instances take them at once — or, `keep`, goes on holding them (the lease
   * renewed; a team that only waits for its own pace here). Nothing to do on SQLite.
   */
  settle(teamIds?: readonly string[], options?: { keep?: boolean }): Promise<void>;
  /** Forgets channels free for a minute and teams idle for an hour; returns how many. */
  sweep(now: number): Promise<number>;
}
