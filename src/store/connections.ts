/**
 * connections: which work-management workspace a Slack team is connected to, and the API key
 * that acts for it. The key is sealed with the team id as associated data; it is decrypted
 * only when read, and never leaves this module in any other form than the Connection.
 */
import type Database from 'better-sqlite3';
import type { SecretBox } from './crypto.js';
import type { Sync } from './sqlite/async-over-sync.js';

export interface Connection {
  teamId: string;
  enterpriseId?: string;
  workspaceId: string;
  workspaceName: string;
  /** The plain service API key. Never log it, never show it back. */
  apiKey: string;
  /** The service user the key acts as (verify's `createdBy`), when known. */
  keyOwnerId?: string;
  /** Slack user id of who connected. */
  connectedBy: string;
  /** ISO 8601 UTC. */
  connectedAt: string;
}

/** A connection without its key: for listings and status pages. */
export type ConnectionInfo = Omit<Connection, 'apiKey'>;

export interface ConnectionsStore {
  /** Throws DecryptError when the stored key cannot be opened with the current secrets key. */
  get(teamId: string): Promise<Connection | undefined>;
  /** Like get, without decrypting (cannot fail on a wrong secrets key). */
  info(teamId: string): Promise<ConnectionInfo | undefined>;
  /** Creates or replaces the team's connection. */
  save(connection: Connection): Promise<void>;
  /** True when there was one. */
  delete(teamId: string): Promise<boolean>;
  list(): Promise<ConnectionInfo[]>;
}

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

export function connectionsStore(db: Database.Database, box: SecretBox): Sync<ConnectionsStore> {
  const select = db.prepare<[string], Row>('SELECT * FROM connections WHERE team_id = ?');
  const upsert = db.prepare(
    `INSERT INTO connections (team_id, enterprise_id, workspace_id, workspace_name, api_key_enc,
       key_owner_id, connected_by, connected_at)
     VALUES (@team_id, @enterprise_id, @workspace_id, @workspace_name, @api_key_enc,
       @key_owner_id, @connected_by, @connected_at)
     ON CONFLICT (team_id) DO UPDATE SET enterprise_id = excluded.enterprise_id,
       workspace_id = excluded.workspace_id, workspace_name = excluded.workspace_name,
       api_key_enc = excluded.api_key_enc, key_owner_id = excluded.key_owner_id,
       connected_by = excluded.connected_by,
       connected_at = excluded.connected_at`,
  );
  const remove = db.prepare('DELETE FROM connections WHERE team_id = ?');
  const all = db.prepare<[], Row>('SELECT * FROM connections ORDER BY team_id');

  return {
    get(teamId) {
      const row = select.get(teamId);
      if (!row) return undefined;
      return { ...toInfo(row), apiKey: box.open(row.api_key_enc, aad(teamId)) };
    },
    info(teamId) {
      const row = select.get(teamId);
      return row ? toInfo(row) : undefined;
    },
    save(c) {
      upsert.run({
        team_id: c.teamId,
        enterprise_id: c.enterpriseId ?? null,
        workspace_id: c.workspaceId,
        workspace_name: c.workspaceName,
        api_key_enc: box.seal(c.apiKey, aad(c.teamId)),
        key_owner_id: c.keyOwnerId ?? null,
        connected_by: c.connectedBy,
        connected_at: c.connectedAt,
      });
    },
    delete(teamId) {
      return remove.run(teamId).changes > 0;
    },
    list() {
      return all.all().map(toInfo);
    },
  };
}
