import { type Db, sql } from './db.js';
import { newId } from './new-ids.js';
import { nowIso } from './time.js';

export interface LabelSpec {
  name: string;
  color: string;
}

export interface LabelEntry {
  _id: string;
  Name: string;
  Color: string;
  CreatedBy: string;
  UpdatedBy: string;
  CreatedTime: string;
  UpdatedTime: string;
}

export function insertLabels(
  db: Db,
  projectId: string,
  userId: string,
  labels: readonly LabelSpec[],
): void {
  const now = nowIso();
  const insert = sql(
    db,
    `INSERT INTO labels (id, project_id, name, color, created_by, updated_by, created_at,
                         updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const l of labels) insert.run(newId(), projectId, l.name, l.color, userId, userId, now, now);
}

/** Project details' LabelsList. */
export function labelEntries(db: Db, projectId: string): LabelEntry[] {
  return sql<LabelEntry>(
    db,
    `SELECT id AS _id, name AS Name, color AS Color, created_by AS CreatedBy,
            updated_by AS UpdatedBy, created_at AS CreatedTime, updated_at AS UpdatedTime
       FROM labels WHERE project_id = ? ORDER BY rowid`,
  ).all(projectId);
}
