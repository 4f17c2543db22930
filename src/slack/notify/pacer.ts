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
 */
export interface PacerOptions {
  /** Fraction of the learned rate to use (default 0.97). */
  headroom?: number;
  /** How long a learned pace lasts without a new 429 (default 2 min). */
  holdMs?: number;
}

interface Pace {
  intervalMs: number;
  /** Earliest start of the team's next send. */
  nextAt: number;
  expiresAt: number;
}

/** A gap this long between accepted sends ends a run (the team went quiet). */
const RUN_GAP_MS = 2_000;

/** Sends Slack accepted since the team's sends last started flowing. */
interface Run {
  start: number;
  last: number;
  count: number;
}

/** A refused send, kept while it may still pair with one in another channel. */
interface Refusal {
  channel: string;
  at: number;
}

export class TeamPacer {
  private readonly refusals = new Map<string, Refusal>();
  private readonly headroom: number;
  private readonly holdMs: number;
  private readonly paused = new Map<string, number>();
  private readonly paces = new Map<string, Pace>();
  private readonly runs = new Map<string, Run>();

  constructor(options: PacerOptions = {}) {
    this.headroom = options.headroom ?? 0.97;
    this.holdMs = options.holdMs ?? 120_000;
  }

  /** Until when the team is paused by a 429, if it is. */
  pausedUntil(teamId: string, now = Date.now()): number | undefined {
    const until = this.paused.get(teamId);
    if (until === undefined) return undefined;
    if (until > now) return until;
    this.paused.delete(teamId);
    return undefined;
  }

  /** When the team may start a send: undefined = now. */
  readyAt(teamId: string, now = Date.now()): number | undefined {
    const paused = this.pausedUntil(teamId, now);
    const pace = this.paceOf(teamId, now);
    const at = Math.max(paused ?? 0, pace?.nextAt ?? 0);
    return at > now ? at : undefined;
  }

  /** A send for the team starts now (spaces the next one when the team is paced). */
  starting(teamId: string, now = Date.now()): void {
    const pace = this.paceOf(teamId, now);
    // A late start (busy event loop) lets the next ones catch up a little, so the average
    // stays at the pace; a long idle gap does not turn into a burst.
    if (pace) pace.nextAt = Math.max(now - 2 * pace.intervalMs, pace.nextAt) + pace.intervalMs;
  }

  /** Slack accepted a send that started at `startedAt`. */
  sent(teamId: string, startedAt: number): void {
    const run = this.runs.get(teamId);
    if (!run || startedAt - run.last > RUN_GAP_MS) {
      this.runs.set(teamId, { start: startedAt, last: startedAt, count: 1 });
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
  limited(teamId: string, retryAfterMs: number, now = Date.now(), startedAt?: number): void {
    const until = now + retryAfterMs;
    this.paused.set(teamId, Math.max(this.paused.get(teamId) ?? 0, until));
    if (startedAt === undefined) return;
    const run = this.runs.get(teamId);
    // The sends after the pause start a new run.
    this.runs.delete(teamId);
    // Too few accepted sends to say anything about the limit: just pause. (Other sends of
    // the same burst, in flight when the limit was hit, find the run gone and only pause.)
    if (!run || run.count < 2) return;
    // A burst faster than the limit is refused within one window: count / window is the
    // limit. A longer run that hit the limit at last was sent at about the limit.
    const windowMs = Math.max(retryAfterMs, 1_000);
    const rate = (run.count / Math.max(windowMs, startedAt - run.start)) * this.headroom;
    const existing = this.paces.get(teamId);
    this.paces.set(teamId, {
      intervalMs: 1 / rate,
      nextAt: Math.max(until, existing?.nextAt ?? 0),
      expiresAt: now + this.holdMs,
    });
  }

  /**
   * Slack answered 429 to a send into `channel` (started at `startedAt`). Returns 'team'
   * when another channel of the team was refused within the window too — the team's limit,
   * so the team is paused and its pace learned (`limited`) — else 'channel': only that
   * channel waits (the caller pauses it).
   */
  refused(
    teamId: string,
    channel: string,
    retryAfterMs: number,
    now: number,
    startedAt: number,
  ): 'team' | 'channel' {
    const windowMs = Math.max(retryAfterMs, 1_000);
    const last = this.refusals.get(teamId);
    this.refusals.set(teamId, { channel, at: now });
    if (!last || last.channel === channel || now - last.at > windowMs) return 'channel';
    this.limited(teamId, retryAfterMs, now, startedAt);
    return 'team';
  }

  /** Teams that may not start a send now. */
  blocked(now = Date.now()): string[] {
    const out = new Set<string>();
    for (const team of [...this.paused.keys(), ...this.paces.keys()]) {
      if (this.readyAt(team, now) !== undefined) out.add(team);
    }
    return [...out];
  }

  /** The earliest future moment a blocked team becomes ready. */
  nextReadyAt(now = Date.now()): number | undefined {
    let next: number | undefined;
    for (const team of [...this.paused.keys(), ...this.paces.keys()]) {
      const at = this.readyAt(team, now);
      if (at !== undefined && (next === undefined || at < next)) next = at;
    }
    return next;
  }

  /** The learned spacing of a team's sends, in ms, if it is paced. */
  intervalOf(teamId: string, now = Date.now()): number | undefined {
    return this.paceOf(teamId, now)?.intervalMs;
  }

  private paceOf(teamId: string, now: number): Pace | undefined {
    const pace = this.paces.get(teamId);
    if (pace && pace.expiresAt <= now) {
      this.paces.delete(teamId);
      return undefined;
    }
    return pace;
  }
}
