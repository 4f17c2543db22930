/**
 * notify_held: DMs held during their recipient's quiet hours. Holding a DM marks its outbox
 * row 'skipped' (so the worker leaves it) and records it here, in one transaction. When the
 * quiet hours end, `release` (also one transaction) puts a lone held DM back in the queue as
 * it was, and replaces several held for one person by ONE new outbox row listing them —
 * keyed (team, `quiet:<release time>`, `slack:<person>`), so releasing twice queues nothing
 * more. The held rows keep their own keys, so an event seen again is still not sent twice.
 *
 * Bursts hold DMs the same way (cause 'burst'): `countInBurst` keeps each person's window in
 * notify_bursts (schema/2026-11-24-dm-bursts.ts) and says when a DM must wait for its end.
 */

/** Why a DM is held: its person's quiet hours, or a burst of DMs to them. */
export type HoldCause = 'quiet' | 'burst';

export interface HeldDm {
  outboxId: number;
  teamId: string;
  slackUserId: string;
  /** Epoch ms: the end of the quiet hours (or of the burst's window). */
  releaseAt: number;
  /** The DM's notification text: one line of the combined message. */
  summary: string;
  /** What it is about, for the combined message (dm-gate.ts kinds; undefined for others). */
  kind?: string;
  projectName?: string;
  taskName?: string;
  /** Default 'quiet'. */
  cause?: HoldCause;
}

/** Why a held row is 'skipped' while held, and after it went out in a combined message. */
export const HELD_REASON = 'held for quiet hours';
export const SENT_COMBINED = 'sent in one message after quiet hours';
export const BURST_REASON = 'held to go out with the DMs that came at the same time';
export const SENT_GROUPED = 'sent in one message with the DMs that came at the same time';

/** The reasons a held row carries, by cause: while held, and once sent combined. */
export const REASONS: Record<HoldCause, { held: string; combined: string }> = {
  quiet: { held: HELD_REASON, combined: SENT_COMBINED },
  burst: { held: BURST_REASON, combined: SENT_GROUPED },
};

/** A person's burst window: the first `after` DMs in `windowMs` go as they come. */
export interface DmBurstRule {
  windowMs: number;
  after: number;
}

/** The message (JSON {text, blocks}) that lists several held DMs of one person. */
export type CombineHeld = (held: readonly HeldDm[]) => string;

export interface HeldDmsStore {
  /** Holds a claimed outbox row until `releaseAt`. */
  hold(dm: HeldDm, now?: number): Promise<void>;
  /** DMs held for a person, oldest first (settings, tests). */
  heldFor(teamId: string, slackUserId: string): Promise<HeldDm[]>;
  /** When the next held DM is due (undefined: none is held). */
  nextReleaseAt(): Promise<number | undefined>;
  /**
   * Releases the DMs due at `due` (the app's clock): each person's lone DM is queued again,
   * several become one queued message built by `combine`; queued rows are due at `now` (the
   * worker's clock). Returns how many messages were queued.
   */
  release(due: number, combine: CombineHeld, now?: number): Promise<number>;
  /**
   * A person's quiet hours changed: their held DMs are now due at `releaseAt` (now, when
   * the hours were turned off or no longer cover this moment). Returns how many are held.
   */
  reschedule(teamId: string, slackUserId: string, releaseAt: number): Promise<number>;
  /**
   * Counts a DM going to a person at `now` in their burst window (one starts with the first
   * DM that finds none open). Returns the window's end when this DM is past the first
   * `rule.after` in it — it must be held until then — else undefined (send it now).
   */
  countInBurst(
    teamId: string,
    slackUserId: string,
    now: number,
    rule: DmBurstRule,
  ): Promise<number | undefined>;
  /** Forgets a team's held DMs and burst windows. */
  deleteTeam(teamId: string): Promise<number>;
}
