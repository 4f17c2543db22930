/** unfurl_settings on PostgreSQL (../unfurl-settings.ts). */
import {
  modeOf,
  ON_CONFLICT_UNFURL,
  type UnfurlSettingsStore,
  UPSERT_UNFURL,
} from '../unfurl-settings.js';
import type { Sql } from './db.js';

export function pgUnfurlSettingsStore(sql: Sql): UnfurlSettingsStore {
  return {
    get: async (teamId) =>
      modeOf(
        (
          await sql.row<{ mode: string }>('SELECT mode FROM unfurl_settings WHERE team_id = $1', [
            teamId,
          ])
        )?.mode,
      ),
    set: async (teamId, mode, by, now = Date.now()) => {
      await sql.run(`${UPSERT_UNFURL} VALUES ($1, $2, $3, $4) ${ON_CONFLICT_UNFURL}`, [
        teamId,
        mode,
        by,
        now,
      ]);
    },
    deleteTeam: (teamId) => sql.run('DELETE FROM unfurl_settings WHERE team_id = $1', [teamId]),
  };
}
