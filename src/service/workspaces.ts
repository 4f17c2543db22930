import { type Db, sql } from './db.js';
import { hashApiKey, newApiKey, newId } from './new-ids.js';
import { nowIso } from './time.js';

/** Who is calling: the key's workspace and its acting user (the key's createdBy). */
export interface Caller {
  workspaceId: string;
  workspaceName: string;
  userId: string;
}

export function createWorkspace(db: Db, name: string): { id: string; name: string } {
  const id = newId();
  sql(db, 'INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run(id, name, nowIso());
  return { id, name };
}

/** Issues a key for the workspace acting as `createdBy`; returns the key (stored only hashed). */
export function createApiKey(db: Db, workspaceId: string, createdBy: string): string {
  const key = newApiKey();
  sql(
    db,
    'INSERT INTO api_keys (key_hash, workspace_id, created_by, created_at) VALUES (?, ?, ?, ?)',
  ).run(hashApiKey(key), workspaceId, createdBy, nowIso());
  return key;
}

/** The caller a key stands for, or undefined for an unknown key. */
export function findCaller(db: Db, key: string): Caller | undefined {
  return sql<Caller>(
    db,
    `SELECT k.workspace_id AS workspaceId, w.name AS workspaceName, k.created_by AS userId
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
      WHERE k.key_hash = ?`,
  ).get(hashApiKey(key));
}

/** Revokes a key (it is answered 401 from now on); true when it existed. */
export function revokeApiKey(db: Db, key: string): boolean {
  return sql(db, 'DELETE FROM api_keys WHERE key_hash = ?').run(hashApiKey(key)).changes > 0;
}

/** The users with this e-mail (case-insensitive), with their workspace, newest workspace first. */
export function usersByEmail(
  db: Db,
  email: string,
): { userId: string; name: string; workspaceId: string; workspaceName: string }[] {
  return sql<{ userId: string; name: string; workspaceId: string; workspaceName: string }>(
    db,
    `SELECT u.id AS userId, u.name AS name, w.id AS workspaceId, w.name AS workspaceName
       FROM users u JOIN workspaces w ON w.id = u.workspace_id
      WHERE lower(u.email) = lower(?) ORDER BY w.created_at DESC, w.id`,
  ).all(email.trim());
}
