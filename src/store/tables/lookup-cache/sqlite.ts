/** lookup-cache on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { LookupCacheStore } from './contract.js';

export function lookupCacheStore(db: Database.Database): Sync<LookupCacheStore> {
  const select = db.prepare<[string, string], { slack_user_id: string | null; expires_at: number }>(
    'SELECT slack_user_id, expires_at FROM notify_lookup_cache WHERE team_id = ? AND email = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO notify_lookup_cache (team_id, email, slack_user_id, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, email) DO UPDATE SET slack_user_id = excluded.slack_user_id,
       expires_at = excluded.expires_at`,
  );
  const clear = db.prepare('DELETE FROM notify_lookup_cache WHERE team_id = ?');
  return {
    get(teamId, email, now = Date.now()) {
      const r = select.get(teamId, email.trim().toLowerCase());
      if (!r || r.expires_at <= now) return undefined;
      return { slackUserId: r.slack_user_id ?? undefined, expiresAt: r.expires_at };
    },
    put(teamId, email, slackUserId, ttlMs, now = Date.now()) {
      upsert.run(teamId, email.trim().toLowerCase(), slackUserId ?? null, now + ttlMs);
    },
    clear: (teamId) => clear.run(teamId).changes,
  };
}
