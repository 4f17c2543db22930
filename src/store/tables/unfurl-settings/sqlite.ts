/** unfurl-settings on SQLite: the table store over better-sqlite3 (what it holds: contract.ts). */
import type Database from 'better-sqlite3';
import type { Sync } from '../../sqlite/async-over-sync.js';
import type { UnfurlSettingsStore } from './contract.js';
import { modeOf, ON_CONFLICT_UNFURL, UPSERT_UNFURL } from './rows.js';

export function unfurlSettingsStore(db: Database.Database): Sync<UnfurlSettingsStore> {
  const select = db.prepare<[string], { mode: string }>(
    'SELECT mode FROM unfurl_settings WHERE team_id = ?',
  );
  const upsert = db.prepare(`${UPSERT_UNFURL} VALUES (?, ?, ?, ?) ${ON_CONFLICT_UNFURL}`);
  const remove = db.prepare('DELETE FROM unfurl_settings WHERE team_id = ?');
  return {
    get: (teamId) => modeOf(select.get(teamId)?.mode),
    set: (teamId, mode, by, now = Date.now()) => {
      upsert.run(teamId, mode, by, now);
    },
    deleteTeam: (teamId) => remove.run(teamId).changes,
  };
}
