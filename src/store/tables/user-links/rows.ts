/** user-links: its rows as both engines store them, and how they read as the contract's types. */
import type { UserLink } from './contract.js';

/** A row as stored (both engines read it the same way). */
export interface Row {
  team_id: string;
  service_email: string;
  slack_user_id: string;
  linked_by: string;
  linked_at: string;
}

export const fromRow = (r: Row): UserLink => ({
  teamId: r.team_id,
  serviceEmail: r.service_email,
  slackUserId: r.slack_user_id,
  linkedBy: r.linked_by,
  linkedAt: r.linked_at,
});
