import type { Group } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { newId } from './new-ids.js';

export interface GroupRow {
  id: string;
  name: string;
}

/** Adds groups after the project's existing ones; returns their ids in order. */
export function insertGroups(db: Db, projectId: string, names: readonly string[]): string[] {
  const insert = sql(
    db,
    `INSERT INTO task_groups (id, project_id, name, position)
     VALUES (?, ?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM task_groups
                        WHERE project_id = ?))`,
  );
  return names.map((name) => {
    const id = newId();
    insert.run(id, projectId, name, projectId);
    return id;
  });
}

export function groupRows(db: Db, projectId: string): GroupRow[] {
  return sql<GroupRow>(
    db,
    'SELECT id, name FROM task_groups WHERE project_id = ? ORDER BY position',
  ).all(projectId);
}

/** Operation 11's items. */
export function groupList(db: Db, projectId: string): Group[] {
  return groupRows(db, projectId).map((g) => ({ groupId: g.id, groupName: g.name, projectId }));
}
