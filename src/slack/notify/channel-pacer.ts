/**
 * When each DM channel may take its next message. Slack allows about one message per second
 * into one channel (chat.postMessage, "special" rate tier) besides the workspace's own
 * limit (pacer.ts), so a person assigned ten tasks gets ten DMs a second apart — while the
 * rest of the team's DMs keep going.
 *
 * - Sends into one channel start at least `intervalMs` apart (a little over a second), and
 *   Slack's limit counts arrivals, not starts: a send that arrived late (its answer came
 *   much later than usual: a cold connection, a busy moment) delays the next one by as much
 *   (`answered`).
 * - A 429 for a send into a channel pauses that channel for Retry-After.
 * - Rows found due for a channel that is not ready are given the channel's next free slots
 *   (`slotFor`), one interval apart, so they leave the front of the queue in order and
 *   each comes due about when its channel can take it. A row seen again (its slot came a
 *   little before the channel was ready, since sends start a little late) keeps its place:
 *   it waits only for the channel, not behind every slot handed out since.
 *
 * Channels are keyed by team and recipient (a DM channel is one per person).
 */
export interface ChannelPacerOptions {
  /** Least time between two sends into one channel (default 1 050 ms). */
  intervalMs?: number;
}

interface ChannelState {
  /** Earliest start of the channel's next send (its last start + interval, or a 429's end). */
  readyAt: number;
  /** The latest slot handed out by `slotFor`. */
  reservedUntil: number;
  /** Rows holding a slot and not started yet. */
  reserved: Set<number>;
}

/** Sweep idle channels out of the map after this many operations. */
const SWEEP_EVERY = 1_000;

export class ChannelPacer {
  readonly intervalMs: number;
  private readonly channels = new Map<string, ChannelState>();
  private operations = 0;
  /** A low estimate of a send's round trip: follows drops at once, rises slowly. */
  private usualRttMs: number | undefined;

  constructor(options: ChannelPacerOptions = {}) {
    this.intervalMs = Math.ceil(options.intervalMs ?? 1_050);
  }

  /** When the channel may take a send: undefined = now. */
  readyAt(teamId: string, channel: string, now = Date.now()): number | undefined {
    const at = this.channels.get(key(teamId, channel))?.readyAt ?? 0;
    return at > now ? at : undefined;
  }

  /** A send (of row `rowId`) into the channel starts now. */
  starting(teamId: string, channel: string, rowId: number, now = Date.now()): void {
    const state = this.state(teamId, channel, now);
    state.readyAt = Math.max(state.readyAt, now + this.intervalMs);
    state.reserved.delete(rowId);
  }

  /**
   * Slack answered a send into the channel that started at `startedAt`. It arrived some
   * time before `now`; the usual round trip says how much before at least, so the next send
   * starts no sooner than a second after the latest the arrival can have been. Until a
   * round trip is known (the process's first send, on a cold connection) that is the answer
   * itself. Returns that moment.
   */
  answered(teamId: string, channel: string, startedAt: number, now = Date.now()): number {
    const rtt = Math.max(0, now - startedAt);
    const usual = this.usualRttMs === undefined ? 0 : Math.min(this.usualRttMs, rtt);
    const state = this.state(teamId, channel, now);
    // Whole milliseconds: the outbox stores due times as integers.
    const next = Math.ceil(now - usual + this.intervalMs);
    state.readyAt = Math.max(state.readyAt, next);
    this.usualRttMs =
      this.usualRttMs === undefined || rtt <= usual ? rtt : usual + (rtt - usual) / 16;
    return next;
  }

  /** Slack answered 429 for a send into this channel: nothing goes in until Retry-After. */
  limited(teamId: string, channel: string, retryAfterMs: number, now = Date.now()): void {
    const state = this.state(teamId, channel, now);
    state.readyAt = Math.max(state.readyAt, now + retryAfterMs);
  }

  /**
   * The due time for row `rowId`, waiting for this channel: the row's turn when it already
   * has a slot (it came due a little early), else the channel's next free slot after those
   * already handed out.
   */
  slotFor(teamId: string, channel: string, rowId: number, now = Date.now()): number {
    const state = this.state(teamId, channel, now);
    if (state.reserved.has(rowId)) return Math.max(state.readyAt, now);
    const slot = Math.max(state.readyAt, now, state.reservedUntil + this.intervalMs);
    state.reservedUntil = slot;
    state.reserved.add(rowId);
    return slot;
  }

  private state(teamId: string, channel: string, now: number): ChannelState {
    if (++this.operations % SWEEP_EVERY === 0) this.sweep(now);
    const k = key(teamId, channel);
    let state = this.channels.get(k);
    if (!state) {
      state = { readyAt: 0, reservedUntil: 0, reserved: new Set() };
      this.channels.set(k, state);
    }
    return state;
  }

  /**
   * Forgets channels with nothing ahead of them (bounded memory on a busy team); a row whose
   * slot long passed (another worker sent it) goes with its channel.
   */
  private sweep(now: number): void {
    for (const [k, s] of this.channels) {
      if (s.readyAt <= now && s.reservedUntil + 60_000 <= now) this.channels.delete(k);
    }
  }
}

const key = (teamId: string, channel: string) => `${teamId}\u0000${channel}`;
