/** team-settings: its rows as both engines store them, and how they read as the contract's types. */
import {
  DEFAULT_SETTINGS,
  LINKS_POLICIES,
  type LinksPolicy,
  MEMBERS_POLICIES,
  type MembersPolicy,
  type TeamSettings,
} from './contract.js';

export interface Row {
  members_policy: string;
  links_policy: string;
  updated_by: string;
  updated_at: number;
}

const isMembers = (v: string): v is MembersPolicy => MEMBERS_POLICIES.some((p) => p === v);

const isLinks = (v: string): v is LinksPolicy => LINKS_POLICIES.some((p) => p === v);

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
