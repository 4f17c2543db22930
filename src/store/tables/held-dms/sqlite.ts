/** held-dms on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { OutboxStore } from '../outbox/contract.js';
import { type CombineHeld, type HeldDm, type HeldDmsStore, REASONS } from './contract.js';
import {
  burstHold,
  COUNT_IN_BURST,
  combinedRow,
  fromRow,
  heldParams,
  INSERT_HELD,
  type Row,
} from './rows.js';

/** Positional values as SQLite's `$1…` parameters. */
const numbered = (values: readonly unknown[]) =>
  Object.fromEntries(values.map((v, i) => [i + 1, v]));

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
