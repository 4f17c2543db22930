/** personal-keys on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { SecretBox } from '../../crypto.js';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { PersonalKeysStore } from './contract.js';
import { aad, type Row, toInfo } from './rows.js';

export function personalKeysStore(db: Database.Database, box: SecretBox): Sync<PersonalKeysStore> {
  const select = db.prepare<[string, string], Row>(
    'SELECT * FROM personal_keys WHERE team_id = ? AND slack_user_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO personal_keys (team_id, slack_user_id, service_user_id, api_key_enc, connected_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (team_id, slack_user_id) DO UPDATE SET service_user_id = excluded.service_user_id,
       api_key_enc = excluded.api_key_enc, connected_at = excluded.connected_at,
       failing_since = NULL, failure = NULL`,
  );
  const remove = db.prepare('DELETE FROM personal_keys WHERE team_id = ? AND slack_user_id = ?');
  const fail = db.prepare(
    `UPDATE personal_keys SET failing_since = ?, failure = ?
      WHERE team_id = ? AND slack_user_id = ? AND failing_since IS NULL`,
  );
  const byService = db.prepare<[string, string], Row>(
    `SELECT * FROM personal_keys WHERE team_id = ? AND service_user_id = ?
        AND failing_since IS NULL ORDER BY connected_at`,
  );
  const all = db.prepare<[string], Row>(
    'SELECT * FROM personal_keys WHERE team_id = ? ORDER BY slack_user_id',
  );
  const removeTeam = db.prepare('DELETE FROM personal_keys WHERE team_id = ?');
  return {
    get(teamId, slackUserId) {
      const row = select.get(teamId, slackUserId);
      if (!row) return undefined;
      return { ...toInfo(row), apiKey: box.open(row.api_key_enc, aad(teamId, slackUserId)) };
    },
    info(teamId, slackUserId) {
      const row = select.get(teamId, slackUserId);
      return row ? toInfo(row) : undefined;
    },
    save(k) {
      const existed = select.get(k.teamId, k.slackUserId) !== undefined;
      upsert.run(
        k.teamId,
        k.slackUserId,
        k.serviceUserId,
        box.seal(k.apiKey, aad(k.teamId, k.slackUserId)),
        k.connectedAt,
      );
      return existed;
    },
    delete: (teamId, slackUserId) => remove.run(teamId, slackUserId).changes > 0,
    markFailing: (teamId, slackUserId, failure, now = Date.now()) =>
      fail.run(now, failure, teamId, slackUserId).changes > 0,
    byServiceUser: (teamId, serviceUserId) => byService.all(teamId, serviceUserId).map(toInfo),
    list: (teamId) => all.all(teamId).map(toInfo),
    deleteTeam: (teamId) => removeTeam.run(teamId).changes,
  };
}
