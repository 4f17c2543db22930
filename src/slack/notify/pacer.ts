/**
 * When each Slack team may start its next DM (the workspace-wide limit; the per-channel
 * limit is channel-pacer.ts's).
 *
 * - A 429 that is the team's limit pauses the team for Retry-After (other teams are not
 *   affected). Slack's 429 does not say which limit it was: one refused send is taken for
 *   its channel's limit (`refused`), refusals in two different channels within the window
 *   for the team's.
 * - It also teaches the team's pace: the sends Slack accepted since the team's sends last
 *   started flowing (at least one Retry-After window) are what the limit allows, so until
 *   the next pause the team's sends are spaced to a bit under that rate instead of bursting
 *   into the limit again. Bursting loses, on every window, the time the burst itself took
 *   (Retry-After counts from the refusal); pacing keeps the team just under its limit with
 *   few 429s. The learned pace is forgotten after two quiet minutes, so a team whose limit
 *   was shared with a busy moment speeds up again.
 *
 * The rules (PaceRules) work on one team's state, plain data: the worker keeps it in the
 * database (src/store/tables/pace/, src/slack/notify/shared-pace.ts) so that every instance on it
 * keeps to one limit.
 */
import type { TeamPaceState } from '../../store/index.js';

export interface PacerOptions {
  /** Fraction of the learned rate to use (default 0.97). */
  headroom?: number;
  /** How long a learned pace lasts without a new 429 (default 2 min). */
  holdMs?: number;
}

/** A gap this long between accepted sends ends a run (the team went quiet). */
const RUN_GAP_MS = 2_000;

/** The pacing rules over one team's state (changed in place). */
export class PaceRules {
  private readonly headroom: number;
  private readonly holdMs: number;

  constructor(options: PacerOptions = {}) {
    this.headroom = options.headroom ?? 0.97;
    this.holdMs = options.holdMs ?? 120_000;
  }

  /** Until when the team is paused by a 429, if it is. */
  pausedUntil(s: TeamPaceState, now: number): number | undefined {
    if (s.pausedUntil === undefined) return undefined;
    if (s.pausedUntil > now) return s.pausedUntil;
    delete s.pausedUntil;
    return undefined;
  }

  /** When the team may start a send: undefined = now. */
  readyAt(s: TeamPaceState, now: number): number | undefined {
    const paused = this.pausedUntil(s, now);
    const pace = this.paceOf(s, now);
    const at = Math.max(paused ?? 0, pace?.nextAt ?? 0);
    return at > now ? at : undefined;
  }

  /** A send for the team starts now (spaces the next one when the team is paced). */
  starting(s: TeamPaceState, now: number): void {
    const pace = this.paceOf(s, now);
    // A late start (busy event loop) lets the next ones catch up a little, so the average
    // stays at the pace; a long idle gap does not turn into a burst.
    if (pace) pace.nextAt = Math.max(now - 2 * pace.intervalMs, pace.nextAt) + pace.intervalMs;
  }

  /** Slack accepted a send that started at `startedAt`. */
  sent(s: TeamPaceState, startedAt: number): void {
    const burst = s.burst;
    if (burst && startedAt < burst.since) {
      // Answered after the burst's 429 was learned from (instances' answers arrive in any
      // order): it counts for that burst, not as the start of a new run — a run of a few
      // late answers would teach a crawl.
      if (startedAt < burst.start) return;
      burst.count++;
      if (s.pace) s.pace.intervalMs = this.intervalFor(burst.count, burst.windowMs);
      return;
    }
    const run = s.run;
    if (!run || startedAt - run.last > RUN_GAP_MS) {
      s.run = { start: startedAt, last: startedAt, count: 1 };
      return;
    }
    run.count++;
    run.last = Math.max(run.last, startedAt);
  }

  /**
   * Slack answered 429 with Retry-After `retryAfterMs`: pause. When the refused call was a
   * send (started at `startedAt`), also learn the pace from the run of accepted sends
   * before it; other calls (e-mail lookups) have limits of their own.
   */
  limited(s: TeamPaceState, retryAfterMs: number, now: number, startedAt?: number): void {
    const until = now + retryAfterMs;
    // A send that started while the team was paused (its slot reserved before the pause, or
    // sent by an instance that had not seen it yet) says nothing of the limit: learning from
    // the few sends accepted since the pause began taught a crawl (5.8/s against 50/s).
    const startedPaused = startedAt !== undefined && startedAt < (s.pausedUntil ?? 0);
    s.pausedUntil = Math.max(s.pausedUntil ?? 0, until);
    if (startedAt === undefined || startedPaused) return;
    // Another send of the burst already learned from, in flight when the limit was hit:
    // it only pauses (its accepted neighbours are counted into that burst by `sent`).
    if (s.burst && startedAt < s.burst.since) return;
    const run = s.run;
    // The sends after the pause start a new run.
    delete s.run;
    // Too few accepted sends to say anything about the limit: just pause.
    if (!run || run.count < 2) return;
    // A burst faster than the limit is refused within one window: count / window is the
    // limit. A longer run that hit the limit at last was sent at about the limit.
    const windowMs = Math.max(retryAfterMs, 1_000, startedAt - run.start);
    s.burst = { since: now, start: run.start, count: run.count, windowMs };
    s.pace = {
      intervalMs: this.intervalFor(run.count, windowMs),
      nextAt: Math.max(until, s.pace?.nextAt ?? 0),
      expiresAt: now + this.holdMs,
    };
  }

  /** The spacing that keeps `count` sends per `windowMs`, less the headroom. */
  private intervalFor(count: number, windowMs: number): number {
    return windowMs / (count * this.headroom);
  }

  /**
   * Slack answered 429 to a send into `channel` (started at `startedAt`). Returns 'team'
   * when another channel of the team was refused within the window too — the team's limit,
   * so the team is paused and its pace learned (`limited`) — else 'channel': only that
   * channel waits (the caller pauses it).
   */
  refused(
    s: TeamPaceState,
    channel: string,
    retryAfterMs: number,
    now: number,
    startedAt: number,
  ): 'team' | 'channel' {
    const windowMs = Math.max(retryAfterMs, 1_000);
    const last = s.refusal;
    s.refusal = { channel, at: now };
    if (!last || last.channel === channel || now - last.at > windowMs) return 'channel';
    this.limited(s, retryAfterMs, now, startedAt);
    return 'team';
  }

  /** No send of the team starts before this (0: none is held back). */
  blockedUntil(s: TeamPaceState, now: number): number {
    return this.readyAt(s, now) ?? 0;
  }

  /** The learned spacing of a team's sends, in ms, if it is paced. */
  intervalOf(s: TeamPaceState, now: number): number | undefined {
    return this.paceOf(s, now)?.intervalMs;
  }

  private paceOf(s: TeamPaceState, now: number): TeamPaceState['pace'] {
    if (s.pace && s.pace.expiresAt <= now) delete s.pace;
    return s.pace;
  }
}
