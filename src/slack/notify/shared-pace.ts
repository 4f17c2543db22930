/**
 * The DM pace every instance on one database keeps: the team's limit (pacer.ts's rules) and
 * each DM channel's one message a second, read and changed in the database
 * (src/store/tables/pace/) in one transaction per step, so two instances together keep to one
 * limit instead of each spending all of it.
 *
 * Per send: `begin` (is the team paced or paused? is the channel free? — if so, take the
 * team's next slot and the channel's next second) and `answered` (count the accepted send,
 * move the channel's next free moment to a second after its arrival). A 429 is `refused`
 * (a send) or `limited` (another call): the pause and the learned pace are the team's, seen
 * by every instance at its next `begin`.
 *
 * The local ChannelPacer still hands out the slots rows wait for and estimates the round
 * trip; the database has the last word on when a channel is free.
 */
import type { PaceStore } from '../../store/index.js';
import type { ChannelPacer } from './channel-pacer.js';
import { PaceRules, type PacerOptions } from './pacer.js';

/** Why a send may not start now, and when it may. */
export interface NotYet {
  at: number;
  scope: 'team' | 'channel';
}

export class SharedPace {
  private readonly rules: PaceRules;

  constructor(
    private readonly store: PaceStore,
    private readonly channels: ChannelPacer,
    options: PacerOptions = {},
  ) {
    this.rules = new PaceRules(options);
  }

  /** Teams that may not start a send at `now`, and the earliest moment one of them may. */
  async blocked(now: number): Promise<{ teams: string[]; nextReadyAt?: number }> {
    const rows = await this.store.blocked(now);
    if (!rows.length) return { teams: [] };
    return {
      teams: rows.map((r) => r.teamId),
      nextReadyAt: Math.min(...rows.map((r) => r.until)),
    };
  }

  /**
   * A send for `teamId` (into `channel`, when known) would start now: undefined when it may
   * (the team's next slot and the channel's next second are then taken), else when it may.
   * `teamSlot` false: the team's slot was taken already (the channel became known later).
   */
  begin(
    teamId: string,
    channel: string | undefined,
    now: number,
    teamSlot = true,
  ): Promise<NotYet | undefined> {
    return this.store.change<NotYet | undefined>(teamId, channel, (s, channelReadyAt) => {
      const teamAt = teamSlot ? this.rules.readyAt(s, now) : undefined;
      const blockedUntil = () => this.rules.blockedUntil(s, now);
      if (teamAt !== undefined) {
        // Whole milliseconds (due times are integers); a learned pace has fractions.
        return { result: { at: Math.ceil(teamAt), scope: 'team' }, blockedUntil: blockedUntil() };
      }
      if (channel && channelReadyAt > now) {
        return {
          result: { at: channelReadyAt, scope: 'channel' },
          blockedUntil: blockedUntil(),
        };
      }
      if (teamSlot) this.rules.starting(s, now);
      return {
        result: undefined,
        blockedUntil: blockedUntil(),
        channelReadyAt: channel ? now + this.channels.intervalMs : undefined,
      };
    });
  }

  /** Slack accepted a send into `channel` that started at `startedAt`. */
  answered(teamId: string, channel: string, startedAt: number, now: number): Promise<void> {
    const next = this.channels.answered(teamId, channel, startedAt, now);
    return this.store.change(teamId, channel, (s, channelReadyAt) => {
      this.rules.sent(s, startedAt);
      return {
        result: undefined,
        blockedUntil: this.rules.blockedUntil(s, now),
        channelReadyAt: Math.max(channelReadyAt, next),
      };
    });
  }

  /**
   * Slack answered 429 to a send into `channel`: the channel waits for Retry-After, and the
   * team too when another channel of it was refused within the window (by any instance).
   */
  refused(
    teamId: string,
    channel: string,
    retryAfterMs: number,
    now: number,
    startedAt: number,
  ): Promise<'team' | 'channel'> {
    this.channels.limited(teamId, channel, retryAfterMs, now);
    return this.store.change(teamId, channel, (s, channelReadyAt) => {
      const scope = this.rules.refused(s, channel, retryAfterMs, now, startedAt);
      return {
        result: scope,
        blockedUntil: this.rules.blockedUntil(s, now),
        channelReadyAt: Math.max(channelReadyAt, now + retryAfterMs),
      };
    });
  }

  /** Another call of the team (an e-mail lookup) got a 429: pause, learn nothing. */
  limited(teamId: string, retryAfterMs: number, now: number): Promise<void> {
    return this.store.change(teamId, undefined, (s) => {
      this.rules.limited(s, retryAfterMs, now);
      return { result: undefined, blockedUntil: this.rules.blockedUntil(s, now) };
    });
  }

  /** The team's pause and learned spacing (tests, benchmarks). */
  state(
    teamId: string,
    now: number,
  ): Promise<{ pausedUntil: number | undefined; intervalMs: number | undefined }> {
    return this.store.change(teamId, undefined, (s) => ({
      result: {
        pausedUntil: this.rules.pausedUntil(s, now),
        intervalMs: this.rules.intervalOf(s, now),
      },
      blockedUntil: this.rules.blockedUntil(s, now),
    }));
  }
}
