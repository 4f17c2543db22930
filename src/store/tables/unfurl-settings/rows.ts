/** unfurl-settings: its rows as both engines store them, and how they read as the contract's types. */
import { UNFURL_MODES, type UnfurlMode } from './contract.js';

/** A stored value as a mode; an unknown one (a newer Worklink wrote it) reads as the default. */
export const modeOf = (v: string | undefined): UnfurlMode =>
  UNFURL_MODES.find((m) => m === v) ?? 'everywhere';

export const UPSERT_UNFURL = `INSERT INTO unfurl_settings (team_id, mode, updated_by, updated_at)`;

export const ON_CONFLICT_UNFURL = `ON CONFLICT (team_id) DO UPDATE SET mode = excluded.mode,
  updated_by = excluded.updated_by, updated_at = excluded.updated_at`;
