/** known-projects: its rows as both engines store them, and how they read as the contract's types. */
import type { KnownProject } from './contract.js';

/** A row as stored (both engines read it the same way). */
export interface Row {
  team_id: string;
  project_id: string;
  project_name: string;
  last_seen_at: string;
}

export const fromRow = (r: Row): KnownProject => ({
  teamId: r.team_id,
  projectId: r.project_id,
  projectName: r.project_name,
  lastSeenAt: r.last_seen_at,
});
