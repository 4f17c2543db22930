/** channel-projects: its rows as both engines store them, and how they read as the contract's types. */
import type { ChannelProject } from './contract.js';

/** A row as stored (both engines read it the same way). */
export interface Row {
  team_id: string;
  channel_id: string;
  project_id: string;
  linked_by: string;
  linked_at: string;
}

export const fromRow = (r: Row): ChannelProject => ({
  teamId: r.team_id,
  channelId: r.channel_id,
  projectId: r.project_id,
  linkedBy: r.linked_by,
  linkedAt: r.linked_at,
});
