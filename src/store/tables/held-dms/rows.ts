/** held-dms: its rows as both engines store them, and how they read as the contract's types. */
import type { HeldDm } from './contract.js';

export interface Row {
  outbox_id: number;
  team_id: string;
  slack_user_id: string;
  release_at: number;
  summary: string;
}

export const fromRow = (r: Row): HeldDm => ({
  outboxId: r.outbox_id,
  teamId: r.team_id,
  slackUserId: r.slack_user_id,
  releaseAt: r.release_at,
  summary: r.summary,
});
