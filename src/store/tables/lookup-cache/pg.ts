/** notify_lookup_cache on PostgreSQL: users.lookupByEmail answers (contract.ts). */

import { named, type Sql } from '../../pg/db.js';
import type { LookupCacheStore } from './contract.js';

export function pgLookupCacheStore(sql: Sql): LookupCacheStore {
  return {
    async get(teamId, email, now = Date.now()) {
      const r = await sql.row<{ slack_user_id: string | null; expires_at: number }>(
        named(
          'lookup-cache.get',
          'SELECT slack_user_id, expires_at FROM notify_lookup_cache WHERE team_id = $1 AND email = $2',
        ),
        [teamId, email.trim().toLowerCase()],
      );
      if (!r || r.expires_at <= now) return undefined;
      return { slackUserId: r.slack_user_id ?? undefined, expiresAt: r.expires_at };
    },
    async put(teamId, email, slackUserId, ttlMs, now = Date.now()) {
      await sql.run(
        named(
          'lookup-cache.put',
          `INSERT INTO notify_lookup_cache (team_id, email, slack_user_id, expires_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (team_id, email) DO UPDATE SET slack_user_id = excluded.slack_user_id,
           expires_at = excluded.expires_at`,
        ),
        [teamId, email.trim().toLowerCase(), slackUserId ?? null, now + ttlMs],
      );
    },
    clear: (teamId) =>
      sql.run(named('lookup-cache.clear', 'DELETE FROM notify_lookup_cache WHERE team_id = $1'), [
        teamId,
      ]),
  };
}
