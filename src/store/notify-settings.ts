/**
 * notify_settings: which notifications each person gets, per kind, and their quiet hours.
 * A kind nobody changed has its default (NOTIFY_KINDS), so adding a kind later needs no
 * migration. Quiet hours are the row of kind 'quiet' with its window as the value.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

/** Every kind of notification a person can turn on or off, with its default and wording. */
export const NOTIFY_KINDS = {
  assigned: { default: true, label: 'Tasks assigned to you' },
  comments: { default: true, label: 'Comments on tasks assigned to you or created by you' },
  completed: { default: true, label: 'Tasks you created completed' },
  digest: { default: true, label: 'Daily digest (weekdays at 09:00 your time)' },
} as const;

export type NotifyKind = keyof typeof NOTIFY_KINDS;

export function isNotifyKind(word: string): word is NotifyKind {
  return Object.hasOwn(NOTIFY_KINDS, word);
}

/** The row kind that holds a person's quiet hours ('HH:MM-HH:MM'); not a NotifyKind. */
const QUIET = 'quiet';

export interface NotifySettingsStore {
  enabled(teamId: string, slackUserId: string, kind: NotifyKind): Promise<boolean>;
  set(teamId: string, slackUserId: string, kind: NotifyKind, enabled: boolean): Promise<void>;
  /** Every kind with its value for this person (defaults filled in). */
  all(teamId: string, slackUserId: string): Promise<Record<NotifyKind, boolean>>;
  /** The person's quiet hours as stored ('20:00-08:00'); undefined when off (the default). */
  quietHours(teamId: string, slackUserId: string): Promise<string | undefined>;
  /** Sets (a window) or turns off (undefined) the person's quiet hours. */
  setQuietHours(teamId: string, slackUserId: string, window: string | undefined): Promise<void>;
  deleteTeam(teamId: string): Promise<number>;
}

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
      const out = {} as Record<NotifyKind, boolean>;
      for (const kind of Object.keys(NOTIFY_KINDS) as NotifyKind[]) {
        out[kind] = enabled(teamId, userId, kind);
      }
      return out;
    },
    quietHours(teamId, userId) {
      const row = select.get(teamId, userId, QUIET);
      return row?.enabled === 1 && row.value ? row.value : undefined;
    },
    setQuietHours(teamId, userId, window) {
      upsert.run(teamId, userId, QUIET, window ? 1 : 0, window ?? null, now());
    },
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
