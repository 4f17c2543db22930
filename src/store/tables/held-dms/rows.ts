/** held-dms: its rows as both engines store them, and how they read as the contract's types. */
import type { NewOutboxRow } from '../outbox/contract.js';
import type { CombineHeld, DmBurstRule, HeldDm } from './contract.js';

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

/** What the window says of the DM just counted: its end when the DM must wait for it. */
export function burstHold(
  window: { window_start: number | string; count: number } | undefined,
  rule: DmBurstRule,
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
