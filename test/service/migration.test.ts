/**
 * Migrations 3 and 4 of the service's schema (src/service/migrations.ts) on a database made by
 * the schema before them (entries 1 and 2): every row is kept; task numbers go on after the
 * largest; the per-project counts and assignees are still kept by their triggers; the outbox,
 * now without AUTOINCREMENT, gives new events seqs after the old ones and delivers the
 * undelivered old event first, then the new one, in order; each task's subscriber rows become
 * its `subscriber_ids`, in their positions' order.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../../src/service/db.js';
import { type ServiceHandle, startService } from '../../src/service/index.js';
import { migrations } from '../../src/service/migrations.js';
import { hashApiKey } from '../../src/service/new-ids.js';
import { makeTempDir, raw, waitFor } from './support.js';

const API_KEY = 'wk_made_by_the_old_schema';
const NOW = '2026-11-01T10:00:00.000Z';
const ids = {
  workspace: 'a00000000000000000000001',
  alice: 'a00000000000000000000002',
  bob: 'a00000000000000000000003',
  project: 'a00000000000000000000004',
  todo: 'a00000000000000000000005',
  done: 'a00000000000000000000006',
  task1: 'a00000000000000000000007',
  task2: 'a00000000000000000000008',
};

/** A database as the program before migration 3 left it, with history in every table. */
function oldDatabase(path: string): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  for (const [i, sql] of migrations.slice(0, 2).entries()) {
    db.exec(sql);
    db.pragma(`user_version = ${i + 1}`);
  }
  const run = (sql: string, ...params: unknown[]) => db.prepare(sql).run(...params);
  run('INSERT INTO workspaces VALUES (?, ?, ?)', ids.workspace, 'Old', NOW);
  for (const [id, name] of [
    [ids.alice, 'Alice'],
    [ids.bob, 'Bob'],
  ]) {
    run(
      'INSERT INTO users (id, workspace_id, name, email, created_at) VALUES (?, ?, ?, ?, ?)',
      id,
      ids.workspace,
      name,
      `${name.toLowerCase()}@example.com`,
      NOW,
    );
  }
  run(
    'INSERT INTO api_keys VALUES (?, ?, ?, ?)',
    hashApiKey(API_KEY),
    ids.workspace,
    ids.alice,
    NOW,
  );
  run(
    `INSERT INTO projects (id, workspace_id, name, owner_id, priority_enabled, default_priority,
       estimate_enabled, milestone_enabled, groups_enabled, labels_enabled, icon_type,
       icon_reference, icon_color, next_task_number, created_by, updated_by, created_at,
       updated_at)
     VALUES (?, ?, 'Old project', ?, 1, 0, 1, 1, 1, 1, 1, 'O', 0, 3, ?, ?, ?, ?)`,
    ids.project,
    ids.workspace,
    ids.alice,
    ids.alice,
    ids.alice,
    NOW,
    NOW,
  );
  run("INSERT INTO statuses VALUES (?, ?, 'To Do', 1, 0, 1)", ids.todo, ids.project);
  run("INSERT INTO statuses VALUES (?, ?, 'Done', 3, 1, 0)", ids.done, ids.project);
  for (const [id, n, status, complete] of [
    [ids.task1, 1, ids.todo, 0],
    [ids.task2, 2, ids.done, 1],
  ] as const) {
    run(
      `INSERT INTO tasks (id, project_id, task_number, name, description, status_id, complete,
         priority, created_by, updated_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, '', ?, ?, 0, ?, ?, ?, ?)`,
      id,
      ids.project,
      n,
      `Old task ${n}`,
      status,
      complete,
      ids.alice,
      ids.alice,
      NOW,
      NOW,
    );
    run(
      'INSERT INTO task_assignees VALUES (?, ?, 0, ?, ?, ?, ?)',
      id,
      ids.bob,
      ids.alice,
      ids.alice,
      NOW,
      NOW,
    );
    // Task 1's subscribers in the other order (positions, not ids, give it).
    const [first, second] = n === 1 ? [ids.bob, ids.alice] : [ids.alice, ids.bob];
    run('INSERT INTO task_subscribers VALUES (?, ?, 1)', id, second);
    run('INSERT INTO task_subscribers VALUES (?, ?, 0)', id, first);
  }
  const event = (id: string, delivered: string | null) =>
    run(
      `INSERT INTO events (id, type, workspace_id, payload, created_at, attempts, delivered_at)
       VALUES (?, 'task.created', ?, ?, ?, ?, ?)`,
      id,
      ids.workspace,
      JSON.stringify({ id, type: 'task.created', old: true }),
      NOW,
      delivered ? 1 : 0,
      delivered,
    );
  event('e00000000000000000000001', NOW);
  event('e00000000000000000000002', NOW);
  event('e00000000000000000000003', null);
  db.close();
}

const SECRET = 'migration-secret';
let temp: ReturnType<typeof makeTempDir>;
let receiver: Server;
const received: { id: string; type: string }[] = [];
let service: ServiceHandle | undefined;

beforeAll(async () => {
  temp = makeTempDir();
  receiver = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    received.push(z.object({ id: z.string(), type: z.string() }).loose().parse(JSON.parse(body)));
    res.writeHead(200).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  await service?.close();
  await new Promise((r) => receiver.close(r));
  temp.remove();
});

describe('migrations 3 and 4 on a database of the old schema', () => {
  it('keeps every row, and numbering, counts and event order go on', async () => {
    const path = join(temp.dir, 'old.db');
    oldDatabase(path);
    const address = receiver.address();
    if (address === null || typeof address === 'string') throw new Error('no receiver port');
    service = await startService({
      dbPath: path,
      eventsUrl: `http://127.0.0.1:${address.port}/events`,
      eventsSecret: SECRET,
      eventsRetryBaseMs: 20,
    });
    const base = service.baseUrl;
    const call = (url: string, options: Parameters<typeof raw>[1] = {}) =>
      raw(url, { apiKey: API_KEY, ...options });

    // The old tasks, their people and the project's assignees are all there.
    const old = await call(`${base}/task/${ids.task2}`);
    expect(old.json).toMatchObject({
      taskNumber: 2,
      status: true,
      subscribers: [ids.alice, ids.bob],
      taskUsers: [{ taskUserId: ids.bob }],
    });
    const other = await call(`${base}/task/${ids.task1}`);
    expect(other.json).toMatchObject({ subscribers: [ids.bob, ids.alice] });
    const project = await call(`${base}/project/${ids.project}`);
    expect(project.json).toMatchObject({ projectUsers: [ids.alice, ids.bob] });

    const created = await call(`${base}/task`, {
      method: 'POST',
      body: { projectId: ids.project, name: 'After the migration', taskUsers: [ids.bob] },
    });
    expect(created.status, created.text).toBe(201);
    const task = z.object({ taskId: z.string(), taskNumber: z.number() }).parse(created.json);
    expect(task.taskNumber).toBe(3);
    // The open/done counts (a page's X-Total-Count) came through and are still kept.
    const open = await raw(`${base}/task?projectId=${ids.project}&complete=false&limit=1`, {
      apiKey: API_KEY,
    });
    expect(open.json).toEqual([{ taskId: ids.task1, taskName: 'Old task 1', taskNumber: 1 }]);

    // The old undelivered event first, then the new one; nothing delivered twice.
    await waitFor(() => received.length >= 2, { what: 'two deliveries' });
    expect(received.map((e) => e.id)).toEqual([
      'e00000000000000000000003',
      expect.stringMatching(/^[0-9a-f]{24}$/),
    ]);
    expect(received[1].type).toBe('task.created');

    const db = openDatabase(path);
    try {
      const rows = db
        .prepare('SELECT seq, delivered_at IS NOT NULL AS delivered FROM events ORDER BY seq')
        .all();
      expect(rows).toEqual([
        { seq: 1, delivered: 1 },
        { seq: 2, delivered: 1 },
        { seq: 3, delivered: 1 },
        { seq: 4, delivered: 1 },
      ]);
      expect(db.prepare("SELECT * FROM sqlite_sequence WHERE name = 'events'").all()).toEqual([]);
      expect(
        db.prepare('SELECT complete, tasks FROM project_task_counts ORDER BY complete').all(),
      ).toEqual([
        { complete: 0, tasks: 2 },
        { complete: 1, tasks: 1 },
      ]);
      expect(db.prepare('SELECT user_id, tasks FROM project_assignees').all()).toEqual([
        { user_id: ids.bob, tasks: 3 },
      ]);
      expect(
        db.prepare("SELECT name FROM sqlite_schema WHERE name = 'task_subscribers'").all(),
      ).toEqual([]);
      // The new task: its creator, then its assignee.
      expect(db.prepare('SELECT subscriber_ids FROM tasks WHERE id = ?').get(task.taskId)).toEqual({
        subscriber_ids: JSON.stringify([ids.alice, ids.bob]),
      });
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});
