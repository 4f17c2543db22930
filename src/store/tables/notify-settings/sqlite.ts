/** notify-settings on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import { NOTIFY_KINDS, type NotifyKind, type NotifySettingsStore } from './contract.js';
import { dmSettings, eachKind, QUIET } from './rows.js';

export function notifySettingsStore(db: Database.Database): Sync<NotifySettingsStore> {
  const select = db.prepare<[string, string, string], { enabled: number; value: string | null }>(
    'SELECT enabled, value FROM notify_settings WHERE team_id = ? AND slack_user_id = ? AND kind = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO notify_settings (team_id, slack_user_id, kind, enabled, value, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, slack_user_id, kind) DO UPDATE SET enabled = excluded.enabled,
       value = excluded.value, updated_at = excluded.updated_at`,
  );
  const removeTeam = db.prepare('DELETE FROM notify_settings WHERE team_id = ?');
  const forDm = db.prepare<
    [string, string, string],
    { kind: string; enabled: number; value: string | null }
  >(
    `SELECT kind, enabled, value FROM notify_settings
      WHERE team_id = ? AND slack_user_id = ? AND kind IN (?, 'quiet')`,
  );
  const enabled = (teamId: string, userId: string, kind: NotifyKind) => {
    const row = select.get(teamId, userId, kind);
    return row ? row.enabled === 1 : NOTIFY_KINDS[kind].default;
  };
  const now = () => new Date().toISOString();
  return {
    enabled,
    set(teamId, userId, kind, on) {
      upsert.run(teamId, userId, kind, on ? 1 : 0, null, now());
    },
    all(teamId, userId) {
      return eachKind((kind) => enabled(teamId, userId, kind));
    },
    quietHours(teamId, userId) {
      const row = select.get(teamId, userId, QUIET);
      return row?.enabled === 1 && row.value ? row.value : undefined;
    },
    forDm: (teamId, userId, kind) =>
      dmSettings(
        kind,
        forDm.all(teamId, userId, kind ?? QUIET).map((r) => ({ ...r, enabled: r.enabled === 1 })),
      ),
    setQuietHours(teamId, userId, window) {
      upsert.run(teamId, userId, QUIET, window ? 1 : 0, window ?? null, now());
    },
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
