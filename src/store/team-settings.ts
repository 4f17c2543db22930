/**
 * team_settings: a Slack team's admin policies (`/work settings`, the admin's App Home).
 * - members: what members without their own key may change — through the workspace key,
 *   attributed ('attributed', the default), or nothing ('read-only').
 * - links: who may link a channel to a project and turn its feed on or off — admins
 *   ('admins', the default) or everyone ('everyone').
 * A team without a row has the defaults.
 */
import type Database from 'better-sqlite3';
import type { Sync } from './sqlite/async-over-sync.js';

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

export interface Row {
  members_policy: string;
  links_policy: string;
  updated_by: string;
  updated_at: number;
}

const isMembers = (v: string): v is MembersPolicy =>
  (MEMBERS_POLICIES as readonly string[]).includes(v);
const isLinks = (v: string): v is LinksPolicy => (LINKS_POLICIES as readonly string[]).includes(v);

/** A row as settings; an unknown value (a newer Worklink wrote it) reads as the default. */
export const fromRow = (r: Row | undefined): TeamSettings =>
  r
    ? {
        members: isMembers(r.members_policy) ? r.members_policy : DEFAULT_SETTINGS.members,
        links: isLinks(r.links_policy) ? r.links_policy : DEFAULT_SETTINGS.links,
        updatedBy: r.updated_by,
        updatedAt: Number(r.updated_at),
      }
    : { ...DEFAULT_SETTINGS };

export const UPSERT_COLUMNS = '(team_id, members_policy, links_policy, updated_by, updated_at)';

export function teamSettingsStore(db: Database.Database): Sync<TeamSettingsStore> {
  const select = db.prepare<[string], Row>('SELECT * FROM team_settings WHERE team_id = ?');
  const upsert = db.prepare(
    `INSERT INTO team_settings ${UPSERT_COLUMNS} VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (team_id) DO UPDATE SET members_policy = excluded.members_policy,
       links_policy = excluded.links_policy, updated_by = excluded.updated_by,
       updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM team_settings WHERE team_id = ?');
  const set = db.transaction(
    (teamId: string, change: Partial<TeamSettings>, by: string, now: number): TeamSettings => {
      const next = { ...fromRow(select.get(teamId)), ...change, updatedBy: by, updatedAt: now };
      upsert.run(teamId, next.members, next.links, by, now);
      return next;
    },
  );
  return {
    get: (teamId) => fromRow(select.get(teamId)),
    set: (teamId, change, by, now = Date.now()) => set(teamId, change, by, now),
    deleteTeam: (teamId) => remove.run(teamId).changes,
  };
}
