/**
 * notify_settings: which notifications each person gets, per kind. A kind nobody changed has
 * its default (KINDS), so adding a kind later needs no migration.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sync.js';

/** Every kind of notification a person can turn on or off, with its default and wording. */
export const NOTIFY_KINDS = {
  digest: { default: true, label: 'Daily digest (weekdays at 09:00 your time)' },
} as const;

export type NotifyKind = keyof typeof NOTIFY_KINDS;

export function isNotifyKind(word: string): word is NotifyKind {
  return Object.hasOwn(NOTIFY_KINDS, word);
}

export interface NotifySettingsStore {
  enabled(teamId: string, slackUserId: string, kind: NotifyKind): Promise<boolean>;
  set(teamId: string, slackUserId: string, kind: NotifyKind, enabled: boolean): Promise<void>;
  /** Every kind with its value for this person (defaults filled in). */
  all(teamId: string, slackUserId: string): Promise<Record<NotifyKind, boolean>>;
  deleteTeam(teamId: string): Promise<number>;
}

export function notifySettingsStore(db: Database.Database): Sync<NotifySettingsStore> {
  const select = db.prepare<[string, string, string], { enabled: number }>(
    'SELECT enabled FROM notify_settings WHERE team_id = ? AND slack_user_id = ? AND kind = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO notify_settings (team_id, slack_user_id, kind, enabled, updated_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (team_id, slack_user_id, kind) DO UPDATE SET enabled = excluded.enabled,
       updated_at = excluded.updated_at`,
  );
  const removeTeam = db.prepare('DELETE FROM notify_settings WHERE team_id = ?');
  const enabled = (teamId: string, userId: string, kind: NotifyKind) => {
    const row = select.get(teamId, userId, kind);
    return row ? row.enabled === 1 : NOTIFY_KINDS[kind].default;
  };
  return {
    enabled,
    set(teamId, userId, kind, on) {
      upsert.run(teamId, userId, kind, on ? 1 : 0, new Date().toISOString());
    },
    all(teamId, userId) {
      const out = {} as Record<NotifyKind, boolean>;
      for (const kind of Object.keys(NOTIFY_KINDS) as NotifyKind[]) {
        out[kind] = enabled(teamId, userId, kind);
      }
      return out;
    },
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
