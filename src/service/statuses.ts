import { STATUS_TYPE, type StatusEntry } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { newId } from './new-ids.js';

export interface StatusSpec {
  name: string;
  type: 1 | 2 | 3;
  isDefault: boolean;
}

export interface StatusRow {
  id: string;
  name: string;
  type: number;
  position: number;
  is_default: number;
}

/** The statuses a new project gets when no template gives others (docs/design.md, Status list). */
export const DEFAULT_STATUSES: readonly StatusSpec[] = [
  { name: 'To Do', type: STATUS_TYPE.todo, isDefault: true },
  { name: 'In Progress', type: STATUS_TYPE.inProgress, isDefault: false },
  { name: 'Done', type: STATUS_TYPE.done, isDefault: false },
];

export function insertStatuses(db: Db, projectId: string, specs: readonly StatusSpec[]): void {
  const insert = sql(
    db,
    `INSERT INTO statuses (id, project_id, name, type, position, is_default)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  // Exactly one default: the first marked one, else the first status.
  const defaultAt = Math.max(
    0,
    specs.findIndex((s) => s.isDefault),
  );
  specs.forEach((s, i) => {
    insert.run(newId(), projectId, s.name, s.type, i, i === defaultAt ? 1 : 0);
  });
}

export function listStatuses(db: Db, projectId: string): StatusRow[] {
  return sql<StatusRow>(
    db,
    `SELECT id, name, type, position, is_default FROM statuses
      WHERE project_id = ? ORDER BY position`,
  ).all(projectId);
}

export function findStatus(db: Db, projectId: string, statusId: string): StatusRow | undefined {
  return sql<StatusRow>(
    db,
    `SELECT id, name, type, position, is_default FROM statuses
      WHERE id = ? AND project_id = ?`,
  ).get(statusId, projectId);
}

export function defaultStatus(db: Db, projectId: string): StatusRow {
  const row = sql<StatusRow>(
    db,
    `SELECT id, name, type, position, is_default FROM statuses
      WHERE project_id = ? ORDER BY is_default DESC, position LIMIT 1`,
  ).get(projectId);
  if (!row) throw new Error(`project ${projectId} has no statuses`);
  return row;
}

export function statusEntry(row: StatusRow): StatusEntry {
  return {
    _id: row.id,
    Name: row.name,
    Type: row.type,
    Index: row.position,
    Default: row.is_default === 1,
  };
}

export function isDoneType(type: number): boolean {
  return type === STATUS_TYPE.done;
}
