/** held-dms on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { OutboxStore } from '../outbox/contract.js';
import {
  type CombineHeld,
  HELD_REASON,
  type HeldDm,
  type HeldDmsStore,
  SENT_COMBINED,
} from './contract.js';
import { fromRow, type Row } from './rows.js';

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
