/**
 * unfurl_settings: where a team's links to the service unfurl (`/work previews`, admins):
 * 'everywhere' (the default: no row), 'linked' (only in channels linked to the task's
 * project) or 'off'.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

export const UNFURL_MODES = ['everywhere', 'linked', 'off'] as const;
export type UnfurlMode = (typeof UNFURL_MODES)[number];

export interface UnfurlSettingsStore {
  get(teamId: string): Promise<UnfurlMode>;
  set(teamId: string, mode: UnfurlMode, by: string, now?: number): Promise<void>;
  deleteTeam(teamId: string): Promise<number>;
}

/** A stored value as a mode; an unknown one (a newer Worklink wrote it) reads as the default. */
export const modeOf = (v: string | undefined): UnfurlMode =>
  UNFURL_MODES.find((m) => m === v) ?? 'everywhere';

export const UPSERT_UNFURL = `INSERT INTO unfurl_settings (team_id, mode, updated_by, updated_at)`;
export const ON_CONFLICT_UNFURL = `ON CONFLICT (team_id) DO UPDATE SET mode = excluded.mode,
  updated_by = excluded.updated_by, updated_at = excluded.updated_at`;

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
