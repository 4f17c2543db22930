/** personal-keys: its rows as both engines store them, and how they read as the contract's types. */
import type { PersonalKeyInfo } from './contract.js';

export interface Row {
  team_id: string;
  slack_user_id: string;
  service_user_id: string;
  api_key_enc: Buffer;
  connected_at: number;
  failing_since: number | null;
  failure: string | null;
}

/** The sealed key is bound to its owner: copied onto another row, it does not open. */
export const aad = (teamId: string, slackUserId: string) => `personal-key:${teamId}:${slackUserId}`;

export const toInfo = (r: Row): PersonalKeyInfo => ({
  teamId: r.team_id,
  slackUserId: r.slack_user_id,
  serviceUserId: r.service_user_id,
  connectedAt: Number(r.connected_at),
  ...(r.failing_since !== null ? { failingSince: Number(r.failing_since) } : {}),
  ...(r.failure !== null ? { failure: r.failure } : {}),
});
