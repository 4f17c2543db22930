/**
 * projectUsers and list tasks' page totals are read from project_assignees and
 * project_task_counts, tables the database keeps with triggers; a database from before
 * them gets them filled from the tasks when it is opened.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db.js';
import { migrations } from '../../src/service/migrations.js';
import { seedDemoWorkspace } from '../../src/service/seed.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir();
afterEach(() => temp.remove());

/** Who is assigned in each project, straight from the tasks. */
const fromTasks = (db: ReturnType<typeof openDatabase>) =>
  db
    .prepare(
      `SELECT t.project_id AS project, a.user_id AS user, COUNT(*) AS n
         FROM task_assignees a JOIN tasks t ON t.id = a.task_id
        GROUP BY t.project_id, a.user_id ORDER BY 1, 2`,
    )
    .all();

it('fills project_assignees and project_task_counts for a database made before them', () => {
  const path = join(temp.dir, 'service.db');
  // A database of the schema before entry 2, seeded there.
  const old = new Database(path);
  old.pragma('journal_mode = WAL');
  old.pragma('foreign_keys = ON');
  old.exec(migrations[0]);
  old.pragma('user_version = 1');
  seedDemoWorkspace(old);
  old.close();

  const db = openDatabase(path);
  expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
  const kept = db
    .prepare(
      'SELECT project_id AS project, user_id AS user, tasks AS n FROM project_assignees ORDER BY 1, 2',
    )
    .all();
  expect(kept.length).toBeGreaterThan(0);
  expect(kept).toEqual(fromTasks(db));
  const counts = db
    .prepare('SELECT project_id AS project, complete, tasks FROM project_task_counts ORDER BY 1, 2')
    .all();
  expect(counts).toEqual(
    db
      .prepare(
        'SELECT project_id AS project, complete, COUNT(*) AS tasks FROM tasks GROUP BY 1, 2 ORDER BY 1, 2',
      )
      .all(),
  );
  db.close();
});
