import type { WorkspaceUser } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { newId } from './new-ids.js';
import { nowIso } from './time.js';

export interface NewUser {
  name: string;
  email: string;
  phone?: string;
  profilePhoto?: string;
  isOwner?: boolean;
  isAdmin?: boolean;
}

interface UserRow {
  id: string;
  name: string;
  email: string;
  phone: string;
  profile_photo: string;
  is_owner: number;
  is_admin: number;
}

export function createUser(db: Db, workspaceId: string, user: NewUser): string {
  const id = newId();
  sql(
    db,
    `INSERT INTO users (id, workspace_id, name, email, phone, profile_photo, is_owner, is_admin,
                        created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    workspaceId,
    user.name,
    user.email,
    user.phone ?? '',
    user.profilePhoto ?? '',
    user.isOwner ? 1 : 0,
    user.isAdmin ? 1 : 0,
    nowIso(),
  );
  return id;
}

/** Operation 13: the workspace's users, by name. */
export function listUsers(db: Db, workspaceId: string): WorkspaceUser[] {
  const rows = sql<UserRow>(
    db,
    `SELECT id, name, email, phone, profile_photo, is_owner, is_admin
       FROM users WHERE workspace_id = ? ORDER BY name, id`,
  ).all(workspaceId);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    profile_photo: r.profile_photo,
    isOwner: r.is_owner === 1,
    isAdmin: r.is_admin === 1,
  }));
}

/** id, name and e-mail of the given users of the workspace, in the order asked. */
export function usersByIds(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): { id: string; name: string; email: string }[] {
  const stmt = sql<{ id: string; name: string; email: string }>(
    db,
    'SELECT id, name, email FROM users WHERE id = ? AND workspace_id = ?',
  );
  const found: { id: string; name: string; email: string }[] = [];
  for (const id of ids) {
    const row = stmt.get(id, workspaceId);
    if (row) found.push(row);
  }
  return found;
}
