/** unfurl_settings on PostgreSQL (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { UnfurlSettingsStore } from './contract.js';
import { modeOf, ON_CONFLICT_UNFURL, UPSERT_UNFURL } from './rows.js';

export function pgUnfurlSettingsStore(sql: Sql): UnfurlSettingsStore {
  return {
    get: async (teamId) =>
      modeOf(
        (
          await sql.row<{ mode: string }>(
            named('unfurl-settings.get', 'SELECT mode FROM unfurl_settings WHERE team_id = $1'),
            [teamId],
          )
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
    deleteTeam: (teamId) =>
      sql.run(
        named('unfurl-settings.deleteTeam', 'DELETE FROM unfurl_settings WHERE team_id = $1'),
        [teamId],
      ),
  };
}
