/**
 * team_settings: a Slack team's admin policies (`/work settings`, the admin's App Home).
 * - members: what members without their own key may change — through the workspace key,
 *   attributed ('attributed', the default), or nothing ('read-only').
 * - links: who may link a channel to a project and turn its feed on or off — admins
 *   ('admins', the default) or everyone ('everyone').
 * A team without a row has the defaults.
 */

export const MEMBERS_POLICIES = ['attributed', 'read-only'] as const;

export const LINKS_POLICIES = ['admins', 'everyone'] as const;

export type MembersPolicy = (typeof MEMBERS_POLICIES)[number];

export type LinksPolicy = (typeof LINKS_POLICIES)[number];

export interface TeamSettings {
  members: MembersPolicy;
  links: LinksPolicy;
  /** Slack user who last changed them, and when (epoch ms); absent for the defaults. */
  updatedBy?: string;
  updatedAt?: number;
}

export const DEFAULT_SETTINGS: TeamSettings = { members: 'attributed', links: 'admins' };

export interface TeamSettingsStore {
  get(teamId: string): Promise<TeamSettings>;
  /** Changes what `change` names, keeping the rest; returns the settings now. */
  set(
    teamId: string,
    change: Partial<Pick<TeamSettings, 'members' | 'links'>>,
    by: string,
    now?: number,
  ): Promise<TeamSettings>;
  deleteTeam(teamId: string): Promise<number>;
}
