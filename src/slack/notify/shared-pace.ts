/**
 * The DM pace every instance on one database keeps: the team's limit (pacer.ts's rules) and
 * each DM channel's one message a second, read and changed in the database
 * (src/store/tables/pace/) as one atomic change per step, so two instances together keep to
 * one limit instead of each spending all of it.
 *
 * - `take`: slots for several sends of a team at once, in ONE change (one statement on
 *   PostgreSQL): each send gets the team's next slot — now, or a moment within `aheadMs`
 *   when the team is paced, reserved so no instance hands it out again — and its channel's
 *   next second; or why not yet. `begin` is `take` for one send, now.
 * - `answered` (an accepted send: count it, move the channel's next free moment to a
 *   second after its arrival) is bookkeeping that need not be written at once: it rides
 *   with the team's next change, or is written on its own once the team goes quiet here
 *   (FLOWING_MS after this instance's last change of it). Folded so, a DM costs one change
 *   (or a share of one), not two.
 * - A 429 is `refused` (a send) or `limited` (another call): the pause and the learned pace
 *   are the team's, seen by every instance at its next change. The answers waiting here are
 *   applied first, in the same change, so the run a 429 learns from is whole.
 *
 * - On PostgreSQL the store holds a lease on a team this instance changes and keeps its pace
 *   in memory (src/store/tables/pace/pg.ts): a team gone quiet here (FLOWING_MS) is settled —
 *   written back, the lease let go — so another instance may take it at once; `flush` (the
 *   worker's stop) settles every team.
 *
 * The local ChannelPacer still hands out the slots rows wait for and estimates the round
 * trip; the database has the last word on when a channel is free.
 */
import type { PaceChange, PaceStore, TeamPaceState } from '../../store/index.js';
import type { ChannelPacer } from './channel-pacer.js';
import { PaceRules, type PacerOptions } from './pacer.js';

/** Why a send may not start now, and when it may. */
export interface NotYet {
  at: number;
  scope: 'team' | 'channel';
}

/** A taken slot (epoch ms: when the send may start, now or reserved later) or why not yet. */
export type Slot = number | NotYet;

/** An accepted send not yet written. */
interface Answer {
  channel: string;
  startedAt: number;
  /** The channel's next free moment it asks for. */
  next: number;
  now: number;
}

/** What this instance last saw of a team's pause and pace (how many slots `room` expects). */
type View = Pick<TeamPaceState, 'pausedUntil' | 'pace'>;

/** Teams whose last view is kept (bounded: forgotten views only cost a batch too big). */
const MAX_VIEWS = 10_000;

/** How often waiting answers are looked at. */
const ANSWER_WAIT_MS = 100;
/**
 * A team this instance changed this recently is being paced here: its next change (a take,
 * every refill) is coming and its answers ride with it — written on their own, they would
 * cost a statement, and with two instances usually two (the other's change made this one's
 * view stale). Every change carries the answers waiting, so none waits longer than
 * FLOWING_MS + ANSWER_WAIT_MS after this instance's last change of its team.
 */
const FLOWING_MS = 250;
/** Answers kept per team when the database does not take them (bookkeeping: bounded). */
const MAX_WAITING = 1_000;

export class SharedPace {
  private readonly rules: PaceRules;
  private readonly waiting = new Map<string, Answer[]>();
  private readonly views = new Map<string, View>();
  /** When this instance last changed each team (this process's clock). */
  private readonly lastChange = new Map<string, number>();
  /** Teams changed here since they were last settled (flushQuiet). */
  private readonly unsettled = new Set<string>();
  private lastBlocked: { at: number; rows: { teamId: string; until: number }[] } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  /** This process's clock, for how long answers wait (tests set it). */
  private readonly clock: () => number;
  /** Whether this instance has sends of the team in flight (the worker's count). */
  private readonly busy: (teamId: string) => boolean;

  constructor(
    private readonly store: PaceStore,
    private readonly channels: ChannelPacer,
    options: PacerOptions & { clock?: () => number; busy?: (teamId: string) => boolean } = {},
    private readonly onError: (e: unknown) => void = () => {},
  ) {
    this.rules = new PaceRules(options);
    this.clock = options.clock ?? Date.now;
    this.busy = options.busy ?? (() => false);
  }

  /**
   * Teams that may not start a send at `now`, and the earliest moment one of them may. What
   * was read within `maxAgeMs` before is used again (the worker looks often; a team blocked
   * meanwhile by another instance is told so by `take`).
   */
  async blocked(now: number, maxAgeMs = 0): Promise<{ teams: string[]; nextReadyAt?: number }> {
    const last = this.lastBlocked;
    const fresh = last && now >= last.at && now - last.at < maxAgeMs;
    const rows = fresh ? last.rows : await this.store.blocked(now);
    if (!fresh) this.lastBlocked = { at: now, rows };
    const still = rows.filter((r) => r.until > now);
    if (!still.length) return { teams: [] };
    return {
      teams: still.map((r) => r.teamId),
      nextReadyAt: Math.min(...still.map((r) => r.until)),
    };
  }

  /**
   * Slots for sends of `teamId` into `channels` (undefined: not known yet), in order, as
   * one change. A send gets the team's next slot if it comes within `aheadMs` of `now` and
   * its channel is free by then (both are then taken), else why not yet; once the team's
   * next slot is too far, every later send is told so. `teamSlot` false: the team's slots
   * were taken already (the channels became known later).
   */
  take(
    teamId: string,
    channels: readonly (string | undefined)[],
    now: number,
    options: { aheadMs?: number; teamSlot?: boolean } = {},
  ): Promise<Slot[]> {
    const aheadMs = options.aheadMs ?? 0;
    const teamSlot = options.teamSlot ?? true;
    const named = channels.filter((c): c is string => c !== undefined);
    return this.change(teamId, named, (s, moments) => {
      let tooFar: NotYet | undefined;
      const slots = channels.map((channel): Slot => {
        let at = now;
        if (teamSlot) {
          if (tooFar) return tooFar;
          const teamAt = this.rules.readyAt(s, now);
          if (teamAt !== undefined) {
            // Whole milliseconds (due times are integers); a learned pace has fractions.
            at = Math.ceil(teamAt);
            if (at > now + aheadMs) {
              tooFar = { at, scope: 'team' };
              return tooFar;
            }
          }
        }
        const channelAt = channel ? (moments.get(channel) ?? 0) : 0;
        if (channel && channelAt > at) return { at: channelAt, scope: 'channel' };
        if (teamSlot) this.rules.starting(s, at);
        if (channel) moments.set(channel, at + this.channels.intervalMs);
        return at;
      });
      return { result: slots, blockedUntil: this.rules.blockedUntil(s, now) };
    });
  }

  /**
   * How many slots the team should have within `aheadMs` of `now`, as this instance last saw
   * its pace (another instance may have taken some since: `take` has the last word).
   * Infinity when it is not paced: the worker then claims what it may.
   */
  room(teamId: string, now: number, aheadMs: number): number {
    const v = this.views.get(teamId);
    const pace = v?.pace && v.pace.expiresAt > now ? v.pace : undefined;
    const start = Math.max(now, this.nextSlotAt(teamId, now) ?? now);
    if (start > now + aheadMs) return 0;
    if (!pace) return Number.POSITIVE_INFINITY;
    return Math.floor((now + aheadMs - start) / pace.intervalMs) + 1;
  }

  /** The team's next free slot as this instance last saw it (undefined: not paced or paused). */
  nextSlotAt(teamId: string, now: number): number | undefined {
    const v = this.views.get(teamId);
    const paused = v?.pausedUntil !== undefined && v.pausedUntil > now ? v.pausedUntil : 0;
    const pace = v?.pace && v.pace.expiresAt > now ? v.pace.nextAt : 0;
    const at = Math.max(paused, pace);
    return at > 0 ? at : undefined;
  }

  /**
   * A send for `teamId` (into `channel`, when known) would start now: undefined when it may
   * (the team's next slot and the channel's next second are then taken), else when it may.
   * `teamSlot` false: the team's slot was taken already (the channel became known later).
   */
  async begin(
    teamId: string,
    channel: string | undefined,
    now: number,
    teamSlot = true,
  ): Promise<NotYet | undefined> {
    const [slot] = await this.take(teamId, [channel], now, { teamSlot });
    return typeof slot === 'object' ? slot : undefined;
  }

  /**
   * Slack accepted a send into `channel` that started at `startedAt`: counted, and the
   * channel's next free moment moved, with the team's next change (or within
   * ANSWER_WAIT_MS). Nothing to wait for: bookkeeping, a failure is only logged.
   */
  answered(teamId: string, channel: string, startedAt: number, now: number): void {
    const next = this.channels.answered(teamId, channel, startedAt, now);
    const list = this.waiting.get(teamId) ?? [];
    if (list.length >= MAX_WAITING) list.shift();
    list.push({ channel, startedAt, next, now });
    this.waiting.set(teamId, list);
    this.arm();
  }

  private arm(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flushQuiet(this.clock());
    }, ANSWER_WAIT_MS).unref();
  }

  /**
   * Settles the teams not changed here within FLOWING_MS (gone quiet): their waiting answers
   * written, and on PostgreSQL what this instance holds of them written back and let go, so
   * another instance may take them at once. The others' answers ride with their next change.
   * A quiet team that waits for its own pace here (a 429's pause, its next paced slot) or
   * still has sends in flight here is written back but kept: the sends after the wait are
   * this instance's (another instance taking the team when the wait ends would send back the
   * DMs each had claimed meanwhile), and the answers of those in flight must find the team
   * here (else they are lost to the run the next 429 learns from: one run learned 27.7/s).
   * It is let go once neither holds and it stays quiet.
   */
  async flushQuiet(now: number): Promise<void> {
    const due = this.pendingTeams().filter(
      (teamId) => now - (this.lastChange.get(teamId) ?? Number.NEGATIVE_INFINITY) >= FLOWING_MS,
    );
    await this.flushTeams(due, now);
    if (this.waiting.size || this.unsettled.size) this.arm();
  }

  /** Writes every answer still waiting and settles every team (the worker's stop). */
  async flush(): Promise<void> {
    await this.flushTeams(this.pendingTeams());
    await this.store.settle().catch(this.onError);
  }

  /** Teams with answers waiting here or changed here since they were last settled. */
  private pendingTeams(): string[] {
    return [...new Set([...this.waiting.keys(), ...this.unsettled])];
  }

  /** `now` given: the teams waiting or busy here at `now` are kept (flushQuiet). */
  private async flushTeams(teams: readonly string[], now?: number): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
    if (!teams.length) return;
    this.flushing = Promise.all(
      teams.map((teamId) => {
        if (!this.waiting.has(teamId)) return undefined;
        // By the answers' clock (the one the rules are given everywhere).
        const at = this.lastAnswerAt(teamId);
        return this.change(teamId, [], (s) => ({
          result: undefined,
          blockedUntil: this.rules.blockedUntil(s, at),
        })).catch(this.onError);
      }),
    )
      .then(() => {
        const held = (teamId: string) =>
          now !== undefined && ((this.nextSlotAt(teamId, now) ?? 0) > now || this.busy(teamId));
        // Their last change was the answers' just made: settled now.
        const letGo = teams.filter((teamId) => !held(teamId));
        for (const teamId of letGo) this.unsettled.delete(teamId);
        // Kept teams stay unsettled, looked at again; the store writes only what it must.
        const keep = teams.filter(held);
        return Promise.all([
          this.store.settle(letGo),
          keep.length ? this.store.settle(keep, { keep: true }) : undefined,
        ]);
      })
      .catch(this.onError)
      .then(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  private lastAnswerAt(teamId: string): number {
    return Math.max(0, ...(this.waiting.get(teamId) ?? []).map((a) => a.now));
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
    return this.change(teamId, [channel], (s, moments) => {
      const scope = this.rules.refused(s, channel, retryAfterMs, now, startedAt);
      moments.set(channel, Math.max(moments.get(channel) ?? 0, now + retryAfterMs));
      return { result: scope, blockedUntil: this.rules.blockedUntil(s, now) };
    });
  }

  /** Another call of the team (an e-mail lookup) got a 429: pause, learn nothing. */
  limited(teamId: string, retryAfterMs: number, now: number): Promise<void> {
    return this.change(teamId, [], (s) => {
      this.rules.limited(s, retryAfterMs, now);
      return { result: undefined, blockedUntil: this.rules.blockedUntil(s, now) };
    });
  }

  /** The team's pause and learned spacing (tests, benchmarks). */
  state(
    teamId: string,
    now: number,
  ): Promise<{ pausedUntil: number | undefined; intervalMs: number | undefined }> {
    return this.change(teamId, [], (s) => {
      // A look, on a copy: the rules drop what expired as they read, and a change would take
      // the team (on PostgreSQL) from the instance pacing it.
      const look = structuredClone(s);
      return {
        result: {
          pausedUntil: this.rules.pausedUntil(look, now),
          intervalMs: this.rules.intervalOf(look, now),
        },
        blockedUntil: this.rules.blockedUntil(look, now),
      };
    });
  }

  /**
   * One change of the team, with the answers waiting for it applied first (in the order
   * they came). When the change fails they wait again for the next one.
   */
  private async change<R>(
    teamId: string,
    channels: readonly string[],
    fn: (s: TeamPaceState, moments: Map<string, number>) => PaceChange<R>,
  ): Promise<R> {
    const answers = this.waiting.get(teamId) ?? [];
    this.waiting.delete(teamId);
    if (this.lastChange.size >= MAX_VIEWS) this.lastChange.clear();
    this.lastChange.set(teamId, this.clock());
    this.unsettled.add(teamId);
    this.arm();
    const named = new Set(channels);
    for (const a of answers) named.add(a.channel);
    try {
      return await this.store.change(teamId, [...named], (s, moments) => {
        for (const a of answers) {
          this.rules.sent(s, a.startedAt);
          moments.set(a.channel, Math.max(moments.get(a.channel) ?? 0, a.next));
        }
        const out = fn(s, moments);
        if (this.views.size >= MAX_VIEWS) this.views.clear();
        this.views.set(teamId, structuredClone({ pausedUntil: s.pausedUntil, pace: s.pace }));
        return out;
      });
    } catch (e) {
      if (answers.length)
        this.waiting.set(teamId, [...answers, ...(this.waiting.get(teamId) ?? [])]);
      throw e;
    }
  }
}
