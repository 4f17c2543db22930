/**
 * unfurl_settings: where a team's links to the service unfurl (`/work previews`, admins):
 * 'everywhere' (the default: no row), 'linked' (only in channels linked to the task's
 * project) or 'off'.
 */

export const UNFURL_MODES = ['everywhere', 'linked', 'off'] as const;

export type UnfurlMode = (typeof UNFURL_MODES)[number];

export interface UnfurlSettingsStore {
  get(teamId: string): Promise<UnfurlMode>;
  set(teamId: string, mode: UnfurlMode, by: string, now?: number): Promise<void>;
  deleteTeam(teamId: string): Promise<number>;
}
