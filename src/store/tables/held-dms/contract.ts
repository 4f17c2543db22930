/**
 * notify_held: DMs held during their recipient's quiet hours. Holding a DM marks its outbox
 * row 'skipped' (so the worker leaves it) and records it here, in one transaction. When the
 * quiet hours end, `release` (also one transaction) puts a lone held DM back in the queue as
 * it was, and replaces several held for one person by ONE new outbox row listing them —
 * keyed (team, `quiet:<release time>`, `slack:<person>`), so releasing twice queues nothing
 * more. The held rows keep their own keys, so an event seen again is still not sent twice.
 */

export interface HeldDm {
  outboxId: number;
  teamId: string;
  slackUserId: string;
  /** Epoch ms: the end of the quiet hours. */
  releaseAt: number;
  /** The DM's notification text: one line of the combined message. */
  summary: string;
}

/** Why a held row is 'skipped' while held, and after it went out in a combined message. */
export const HELD_REASON = 'held for quiet hours';

export const SENT_COMBINED = 'sent in one message after quiet hours';

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
  deleteTeam(teamId: string): Promise<number>;
}
