/** connections: its rows as both engines store them, and how they read as the contract's types. */
import type { ConnectionInfo } from './contract.js';

export interface Row {
  team_id: string;
  enterprise_id: string | null;
  workspace_id: string;
  workspace_name: string;
  api_key_enc: Buffer;
  key_owner_id: string | null;
  connected_by: string;
  connected_at: string;
}

/** The sealed key is bound to its team: copied onto another row, it does not open. */
export const aad = (teamId: string) => `connection:${teamId}`;

export const toInfo = (row: Row): ConnectionInfo => ({
  teamId: row.team_id,
  ...(row.enterprise_id ? { enterpriseId: row.enterprise_id } : {}),
  workspaceId: row.workspace_id,
  workspaceName: row.workspace_name,
  ...(row.key_owner_id ? { keyOwnerId: row.key_owner_id } : {}),
  connectedBy: row.connected_by,
  connectedAt: row.connected_at,
});
