/**
 * notify_settings on PostgreSQL: which notifications each person gets, and their quiet hours
 * (contract.ts).
 */

import { named, type Sql } from '../../pg/db.js';
import { NOTIFY_KINDS, type NotifyKind, type NotifySettingsStore } from './contract.js';
import { dmSettings, eachKind, QUIET } from './rows.js';

export function pgNotifySettingsStore(sql: Sql): NotifySettingsStore {
  const enabled = async (teamId: string, userId: string, kind: NotifyKind) => {
    const row = await sql.row<{ enabled: boolean }>(
      named(
        'notify-settings.enabled',
        'SELECT enabled FROM notify_settings WHERE team_id = $1 AND slack_user_id = $2 AND kind = $3',
      ),
      [teamId, userId, kind],
    );
    return row ? row.enabled : NOTIFY_KINDS[kind].default;
  };
  return {
    enabled,
    async set(teamId, userId, kind, on) {
      await sql.run(
        named(
          'notify-settings.set',
          `INSERT INTO notify_settings (team_id, slack_user_id, kind, enabled, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (team_id, slack_user_id, kind) DO UPDATE SET enabled = excluded.enabled,
           updated_at = excluded.updated_at`,
        ),
        [teamId, userId, kind, on, new Date().toISOString()],
      );
    },
    async all(teamId, userId) {
      const rows = await sql.rows<{ kind: string; enabled: boolean }>(
        named(
          'notify-settings.all',
          'SELECT kind, enabled FROM notify_settings WHERE team_id = $1 AND slack_user_id = $2',
        ),
        [teamId, userId],
      );
      return eachKind(
        (kind) => rows.find((r) => r.kind === kind)?.enabled ?? NOTIFY_KINDS[kind].default,
      );
    },
    async quietHours(teamId, userId) {
      const row = await sql.row<{ enabled: boolean; value: string | null }>(
        named(
          'notify-settings.quietHours',
          `SELECT enabled, value FROM notify_settings
          WHERE team_id = $1 AND slack_user_id = $2 AND kind = 'quiet'`,
        ),
        [teamId, userId],
      );
      return row?.enabled && row.value ? row.value : undefined;
    },
    forDm: async (teamId, userId, kind) =>
      dmSettings(
        kind,
        await sql.rows<{ kind: string; enabled: boolean; value: string | null }>(
          named(
            'notify-settings.forDm',
            `SELECT kind, enabled, value FROM notify_settings
              WHERE team_id = $1 AND slack_user_id = $2 AND kind IN ($3, 'quiet')`,
          ),
          [teamId, userId, kind ?? QUIET],
        ),
      ),
    async setQuietHours(teamId, userId, window) {
      await sql.run(
        named(
          'notify-settings.setQuietHours',
          `INSERT INTO notify_settings (team_id, slack_user_id, kind, enabled, value, updated_at)
         VALUES ($1, $2, 'quiet', $3, $4, $5)
         ON CONFLICT (team_id, slack_user_id, kind) DO UPDATE SET enabled = excluded.enabled,
           value = excluded.value, updated_at = excluded.updated_at`,
        ),
        [teamId, userId, Boolean(window), window ?? null, new Date().toISOString()],
      );
    },
    deleteTeam: (teamId) =>
      sql.run(
        named('notify-settings.deleteTeam', 'DELETE FROM notify_settings WHERE team_id = $1'),
        [teamId],
      ),
  };
}
