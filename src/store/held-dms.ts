/**
 * notify_held: DMs held during their recipient's quiet hours. Holding a DM marks its outbox
 * row 'skipped' (so the worker leaves it) and records it here, in one transaction. When the
 * quiet hours end, `release` (also one transaction) puts a lone held DM back in the queue as
 * it was, and replaces several held for one person by ONE new outbox row listing them —
 * keyed (team, `quiet:<release time>`, `slack:<person>`), so releasing twice queues nothing
 * more. The held rows keep their own keys, so an event seen again is still not sent twice.
 */
import type Database from 'better-sqlite3';
import type { OutboxStore } from './outbox.js';
import type { Sync } from './sqlite/async-over-sync.js';

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

export interface Row {
  outbox_id: number;
  team_id: string;
  slack_user_id: string;
  release_at: number;
  summary: string;
}

export const fromRow = (r: Row): HeldDm => ({
  outboxId: r.outbox_id,
  teamId: r.team_id,
  slackUserId: r.slack_user_id,
  releaseAt: r.release_at,
  summary: r.summary,
});

export function heldDmsStore(db: Database.Database, outbox: Sync<OutboxStore>): Sync<HeldDmsStore> {
  const insert = db.prepare(
    `INSERT INTO notify_held (outbox_id, team_id, slack_user_id, release_at, summary)
     VALUES (@outboxId, @teamId, @slackUserId, @releaseAt, @summary)
     ON CONFLICT (outbox_id) DO NOTHING`,
  );
  const setStatus = db.prepare(
    `UPDATE notify_outbox SET status = @status, last_error = @reason, next_attempt_at = @at,
       claimed_until = NULL, updated_at = @iso
     WHERE id = @id`,
  );
  const forPerson = db.prepare<[string, string], Row>(
    'SELECT * FROM notify_held WHERE team_id = ? AND slack_user_id = ? ORDER BY outbox_id',
  );
  const dueRows = db.prepare<[number], Row>(
    `SELECT * FROM notify_held WHERE release_at <= ?
      ORDER BY team_id, slack_user_id, outbox_id`,
  );
  const next = db.prepare<[], { at: number | null }>(
    'SELECT MIN(release_at) AS at FROM notify_held',
  );
  const remove = db.prepare('DELETE FROM notify_held WHERE outbox_id = ?');
  const removeTeam = db.prepare('DELETE FROM notify_held WHERE team_id = ?');
  const moveRelease = db.prepare(
    'UPDATE notify_held SET release_at = ? WHERE team_id = ? AND slack_user_id = ?',
  );

  const hold = db.transaction((dm: HeldDm, now: number) => {
    const iso = new Date(now).toISOString();
    setStatus.run({ id: dm.outboxId, status: 'skipped', reason: HELD_REASON, at: now, iso });
    insert.run(dm);
  });

  const release = db.transaction((due: number, combine: CombineHeld, now: number) => {
    const iso = new Date(now).toISOString();
    const groups = new Map<string, HeldDm[]>();
    for (const r of dueRows.all(due).map(fromRow)) {
      const key = `${r.teamId}\n${r.slackUserId}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    for (const held of groups.values()) {
      const [first] = held;
      if (!first) continue;
      if (held.length === 1) {
        setStatus.run({ id: first.outboxId, status: 'pending', reason: null, at: now, iso });
      } else {
        for (const h of held) {
          setStatus.run({ id: h.outboxId, status: 'skipped', reason: SENT_COMBINED, at: now, iso });
        }
        const releaseAt = Math.max(...held.map((h) => h.releaseAt));
        outbox.enqueue(
          [
            {
              teamId: first.teamId,
              taskId: `quiet:${releaseAt}`,
              serviceUserId: `slack:${first.slackUserId}`,
              slackUserId: first.slackUserId,
              source: 'slack',
              taskName: `${held.length} notifications held during quiet hours`,
              message: combine(held),
            },
          ],
          'ignore',
          now,
        );
      }
      for (const h of held) remove.run(h.outboxId);
    }
    return groups.size;
  });

  return {
    hold(dm, now = Date.now()) {
      hold(dm, now);
    },
    heldFor: (teamId, slackUserId) => forPerson.all(teamId, slackUserId).map(fromRow),
    nextReleaseAt: () => next.get()?.at ?? undefined,
    release(due, combine, now = Date.now()) {
      const queued = release(due, combine, now);
      if (queued) outbox.changed();
      return queued;
    },
    reschedule: (teamId, slackUserId, releaseAt) =>
      moveRelease.run(releaseAt, teamId, slackUserId).changes,
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
