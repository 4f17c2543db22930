/**
 * personal_keys: a Slack person's own service API key (`/work connect me`), so that what they
 * change in the service is made as them. Sealed like the workspace key (crypto.ts), bound to
 * (team, person) as associated data, decrypted only when read. A key the service starts
 * refusing (401/403) is marked failing: its owner is told once and acts as if they had none
 * until they connect again.
 */
import type Database from 'better-sqlite3';
import type { SecretBox } from './crypto.js';
import type { Sync } from './sqlite/async-over-sync.js';

export interface PersonalKey {
  teamId: string;
  slackUserId: string;
  /** The service user the key acts as (verify's `createdBy`). */
  serviceUserId: string;
  /** The plain key. Never log it, never show it back. */
  apiKey: string;
  /** Epoch ms. */
  connectedAt: number;
  /** Epoch ms since the service refused the key; then it is not used. */
  failingSince?: number;
  /** The service's reason, in words (no key in it). */
  failure?: string;
}

/** A personal key without the key. */
export type PersonalKeyInfo = Omit<PersonalKey, 'apiKey'>;

export interface PersonalKeysStore {
  /** Throws DecryptError when the key cannot be opened with the current secrets key. */
  get(teamId: string, slackUserId: string): Promise<PersonalKey | undefined>;
  info(teamId: string, slackUserId: string): Promise<PersonalKeyInfo | undefined>;
  /** Creates or replaces the person's key (clearing a failure); true when one was replaced. */
  save(key: Omit<PersonalKey, 'failingSince' | 'failure'>): Promise<boolean>;
  /** True when there was one. */
  delete(teamId: string, slackUserId: string): Promise<boolean>;
  /**
   * Marks the key failing. True only for the call that changed it from working to failing
   * (exactly one caller tells its owner, however many requests saw the refusal).
   */
  markFailing(teamId: string, slackUserId: string, failure: string, now?: number): Promise<boolean>;
  /** The Slack people holding a working key of this service user. */
  byServiceUser(teamId: string, serviceUserId: string): Promise<PersonalKeyInfo[]>;
  list(teamId: string): Promise<PersonalKeyInfo[]>;
  deleteTeam(teamId: string): Promise<number>;
}

export interface Row {
  team_id: string;
  slack_user_id: string;
  service_user_id: string;
  api_key_enc: Buffer;
  connected_at: number;
  failing_since: number | null;
  failure: string | null;
}

/** The sealed key is bound to its owner: copied onto another row, it does not open. */
export const aad = (teamId: string, slackUserId: string) => `personal-key:${teamId}:${slackUserId}`;

export const toInfo = (r: Row): PersonalKeyInfo => ({
  teamId: r.team_id,
  slackUserId: r.slack_user_id,
  serviceUserId: r.service_user_id,
  connectedAt: Number(r.connected_at),
  ...(r.failing_since !== null ? { failingSince: Number(r.failing_since) } : {}),
  ...(r.failure !== null ? { failure: r.failure } : {}),
});

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
