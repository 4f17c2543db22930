/**
 * connections: which work-management workspace a Slack team is connected to, and the API key
 * that acts for it. The key is sealed with the team id as associated data; it is decrypted
 * only when read, and never leaves this module in any other form than the Connection.
 */

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
