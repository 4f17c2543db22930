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
import type Database from 'better-sqlite3';
import type { NewOutboxRow, OutboxStore } from './outbox.js';
import type { Sync } from './sqlite/async-over-sync.js';

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
export interface BurstRule {
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
    rule: BurstRule,
  ): Promise<number | undefined>;
  /** Forgets a team's held DMs and burst windows. */
  deleteTeam(teamId: string): Promise<number>;
}

export interface Row {
  outbox_id: number;
  team_id: string;
  slack_user_id: string;
  release_at: number;
  summary: string;
  kind: string | null;
  project_name: string | null;
  task_name: string | null;
  cause: string;
}

export const fromRow = (r: Row): HeldDm => ({
  outboxId: r.outbox_id,
  teamId: r.team_id,
  slackUserId: r.slack_user_id,
  releaseAt: r.release_at,
  summary: r.summary,
  ...(r.kind ? { kind: r.kind } : {}),
  ...(r.project_name ? { projectName: r.project_name } : {}),
  ...(r.task_name ? { taskName: r.task_name } : {}),
  cause: r.cause === 'burst' ? 'burst' : 'quiet',
});

/** The columns of a held DM, in INSERT order (both engines). */
export const heldParams = (dm: HeldDm) =>
  [
    dm.outboxId,
    dm.teamId,
    dm.slackUserId,
    dm.releaseAt,
    dm.summary,
    dm.kind ?? null,
    dm.projectName ?? null,
    dm.taskName ?? null,
    dm.cause ?? 'quiet',
  ] as const;

// Statements both engines run as written: `$1…` is PostgreSQL's parameter and, given an
// object {1: …}, SQLite's too (`numbered`).
export const INSERT_HELD = `INSERT INTO notify_held
    (outbox_id, team_id, slack_user_id, release_at, summary, kind, project_name, task_name, cause)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (outbox_id) DO NOTHING`;

/**
 * A window that ended starts again at `now` ($3) with this DM; else the DM is counted in it
 * ($4: the window's length). Returns the window after.
 */
export const COUNT_IN_BURST = `INSERT INTO notify_bursts (team_id, slack_user_id, window_start, count)
  VALUES ($1, $2, $3, 1)
  ON CONFLICT (team_id, slack_user_id) DO UPDATE SET
    count = CASE WHEN notify_bursts.window_start + $4 <= $3 THEN 1 ELSE notify_bursts.count + 1 END,
    window_start = CASE WHEN notify_bursts.window_start + $4 <= $3 THEN $3
                        ELSE notify_bursts.window_start END
  RETURNING window_start, count`;

/** Positional values as SQLite's `$1…` parameters. */
const numbered = (values: readonly unknown[]) =>
  Object.fromEntries(values.map((v, i) => [i + 1, v]));

/** What the window says of the DM just counted: its end when the DM must wait for it. */
export function burstHold(
  window: { window_start: number | string; count: number } | undefined,
  rule: BurstRule,
): number | undefined {
  if (!window || window.count <= rule.after) return undefined;
  return Number(window.window_start) + rule.windowMs;
}

/** The combined message's outbox key: one per person and release moment. */
export const combinedKey = (held: readonly HeldDm[], releaseAt: number) =>
  `${held.some((h) => (h.cause ?? 'quiet') === 'quiet') ? 'quiet' : 'burst'}:${releaseAt}`;

/** The combined message's task name (what `/work status` lists). */
export const combinedName = (held: readonly HeldDm[]) =>
  held.some((h) => (h.cause ?? 'quiet') === 'quiet')
    ? `${held.length} notifications held during quiet hours`
    : `${held.length} notifications sent as one`;

/** The one outbox row that lists several held DMs of one person. */
export function combinedRow(held: readonly HeldDm[], combine: CombineHeld): NewOutboxRow {
  const [first] = held;
  if (!first) throw new Error('Nothing held to combine.');
  const releaseAt = Math.max(...held.map((h) => h.releaseAt));
  return {
    teamId: first.teamId,
    taskId: combinedKey(held, releaseAt),
    serviceUserId: `slack:${first.slackUserId}`,
    slackUserId: first.slackUserId,
    source: 'slack',
    taskName: combinedName(held),
    message: combine(held),
  };
}

export function heldDmsStore(db: Database.Database, outbox: Sync<OutboxStore>): Sync<HeldDmsStore> {
  const insert = db.prepare(INSERT_HELD);
  const countBurst = db.prepare<[Record<string, unknown>], { window_start: number; count: number }>(
    COUNT_IN_BURST,
  );
  const removeTeamBursts = db.prepare('DELETE FROM notify_bursts WHERE team_id = ?');
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
    const reason = REASONS[dm.cause ?? 'quiet'].held;
    setStatus.run({ id: dm.outboxId, status: 'skipped', reason, at: now, iso });
    insert.run(numbered(heldParams(dm)));
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
          const reason = REASONS[h.cause ?? 'quiet'].combined;
          setStatus.run({ id: h.outboxId, status: 'skipped', reason, at: now, iso });
        }
        outbox.enqueue([combinedRow(held, combine)], 'ignore', now);
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
    countInBurst: (teamId, slackUserId, now, rule) =>
      burstHold(countBurst.get(numbered([teamId, slackUserId, now, rule.windowMs])), rule),
    deleteTeam: (teamId) => {
      removeTeamBursts.run(teamId);
      return removeTeam.run(teamId).changes;
    },
  };
}
