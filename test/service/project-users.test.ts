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

/** Rows as the program of the schema's entry 1 wrote them: 3 tasks, 2 of them assigned. */
function oldRows(db: Database.Database): void {
  const run = (sql: string, ...params: unknown[]) => db.prepare(sql).run(...params);
  const now = '2026-11-01T10:00:00.000Z';
  const [workspace, alice, bob, project, todo, done] = [1, 2, 3, 4, 5, 6].map(
    (n) => `b${String(n).padStart(23, '0')}`,
  );
  run('INSERT INTO workspaces VALUES (?, ?, ?)', workspace, 'Old', now);
  for (const [id, name] of [
    [alice, 'alice'],
    [bob, 'bob'],
  ]) {
    run(
      'INSERT INTO users (id, workspace_id, name, email, created_at) VALUES (?, ?, ?, ?, ?)',
      id,
      workspace,
      name,
      `${name}@example.com`,
      now,
    );
  }
  run(
    `INSERT INTO projects (id, workspace_id, name, owner_id, priority_enabled, default_priority,
       estimate_enabled, milestone_enabled, groups_enabled, labels_enabled, icon_type,
       icon_reference, icon_color, created_by, updated_by, created_at, updated_at)
     VALUES (?, ?, 'Old', ?, 1, 0, 1, 1, 1, 1, 1, 'O', 0, ?, ?, ?, ?)`,
    project,
    workspace,
    alice,
    alice,
    alice,
    now,
    now,
  );
  run("INSERT INTO statuses VALUES (?, ?, 'To Do', 1, 0, 1)", todo, project);
  run("INSERT INTO statuses VALUES (?, ?, 'Done', 3, 1, 0)", done, project);
  for (const [n, complete, assignees] of [
    [1, 0, [alice, bob]],
    [2, 1, [bob]],
    [3, 0, []],
  ] as const) {
    const id = `c${String(n).padStart(23, '0')}`;
    run(
      `INSERT INTO tasks (id, project_id, task_number, name, description, status_id, complete,
         priority, created_by, updated_by, created_at, updated_at)
       VALUES (?, ?, ?, 'Old', '', ?, ?, 0, ?, ?, ?, ?)`,
      id,
      project,
      n,
      complete ? done : todo,
      complete,
      alice,
      alice,
      now,
      now,
    );
    assignees.forEach((user, i) => {
      run(
        'INSERT INTO task_assignees VALUES (?, ?, ?, ?, ?, ?, ?)',
        id,
        user,
        i,
        alice,
        alice,
        now,
        now,
      );
    });
  }
}

it('fills project_assignees and project_task_counts for a database made before them', () => {
  const path = join(temp.dir, 'service.db');
  // A database of the schema before entry 2, with the rows its program wrote.
  const old = new Database(path);
  old.pragma('journal_mode = WAL');
  old.pragma('foreign_keys = ON');
  old.exec(migrations[0]);
  old.pragma('user_version = 1');
  oldRows(old);
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
