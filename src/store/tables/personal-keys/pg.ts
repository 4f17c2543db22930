/** personal_keys on PostgreSQL: each person's own service key (contract.ts). */
import type { SecretBox } from '../../crypto.js';
import { named, type Sql } from '../../pg/db.js';
import type { PersonalKeysStore } from './contract.js';
import { aad, type Row, toInfo } from './rows.js';

export function pgPersonalKeysStore(sql: Sql, box: SecretBox): PersonalKeysStore {
  const select = (teamId: string, slackUserId: string) =>
    sql.row<Row>(
      named(
        'personal-keys.byPerson',
        'SELECT * FROM personal_keys WHERE team_id = $1 AND slack_user_id = $2',
      ),
      [teamId, slackUserId],
    );
  return {
    async get(teamId, slackUserId) {
      const row = await select(teamId, slackUserId);
      if (!row) return undefined;
      return { ...toInfo(row), apiKey: box.open(row.api_key_enc, aad(teamId, slackUserId)) };
    },
    async info(teamId, slackUserId) {
      const row = await select(teamId, slackUserId);
      return row ? toInfo(row) : undefined;
    },
    async save(k) {
      // xmax = 0 only for a freshly inserted row: tells an insert from an update in one trip.
      const r = await sql.row<{ inserted: boolean }>(
        named(
          'personal-keys.save',
          `INSERT INTO personal_keys (team_id, slack_user_id, service_user_id, api_key_enc, connected_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (team_id, slack_user_id) DO UPDATE SET
           service_user_id = excluded.service_user_id, api_key_enc = excluded.api_key_enc,
           connected_at = excluded.connected_at, failing_since = NULL, failure = NULL
         RETURNING (xmax = 0) AS inserted`,
        ),
        [
          k.teamId,
          k.slackUserId,
          k.serviceUserId,
          box.seal(k.apiKey, aad(k.teamId, k.slackUserId)),
          k.connectedAt,
        ],
      );
      return r?.inserted === false;
    },
    delete: async (teamId, slackUserId) =>
      (await sql.run(
        named(
          'personal-keys.delete',
          'DELETE FROM personal_keys WHERE team_id = $1 AND slack_user_id = $2',
        ),
        [teamId, slackUserId],
      )) > 0,
    markFailing: async (teamId, slackUserId, failure, now = Date.now()) =>
      (await sql.run(
        named(
          'personal-keys.markFailing',
          `UPDATE personal_keys SET failing_since = $1, failure = $2
          WHERE team_id = $3 AND slack_user_id = $4 AND failing_since IS NULL`,
        ),
        [now, failure, teamId, slackUserId],
      )) > 0,
    byServiceUser: async (teamId, serviceUserId) =>
      (
        await sql.rows<Row>(
          named(
            'personal-keys.byServiceUser',
            `SELECT * FROM personal_keys WHERE team_id = $1 AND service_user_id = $2
              AND failing_since IS NULL ORDER BY connected_at`,
          ),
          [teamId, serviceUserId],
        )
      ).map(toInfo),
    list: async (teamId) =>
      (
        await sql.rows<Row>(
          named(
            'personal-keys.list',
            'SELECT * FROM personal_keys WHERE team_id = $1 ORDER BY slack_user_id COLLATE "C"',
          ),
          [teamId],
        )
      ).map(toInfo),
    deleteTeam: (teamId) =>
      sql.run(named('personal-keys.deleteTeam', 'DELETE FROM personal_keys WHERE team_id = $1'), [
        teamId,
      ]),
  };
}
