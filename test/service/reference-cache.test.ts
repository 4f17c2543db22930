/**
 * The rows create task checks against are cached (src/service/reference-cache.ts). A create
 * never sees a project's settings or statuses as they were before: after an update or delete
 * through the service, after a write by another connection, after a rolled-back transaction
 * that had changed them, and after a shared (group) commit that failed.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Db, openDatabase, transact } from '../../src/service/db.js';
import { GroupCommit } from '../../src/service/group-commit.js';
import { seedDemoWorkspace } from '../../src/service/index.js';
import { updateProject } from '../../src/service/projects.js';
import { createTaskJson } from '../../src/service/task-create.js';
import { type Caller, findCaller } from '../../src/service/workspaces.js';
import { makeTempDir, raw, startTestService, type TestService } from './support.js';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});

afterAll(async () => {
  await t.stop();
});

const taskAnswer = z.object({ priority: z.string() });

function callerOf(db: Db, apiKey: string): Caller {
  const caller = findCaller(db, apiKey);
  if (!caller) throw new Error('the seeded key is unknown');
  return caller;
}

async function create(projectId: string, fields: Record<string, unknown> = {}) {
  return raw(`${t.service.baseUrl}/task`, {
    method: 'POST',
    apiKey: t.seed.apiKey,
    body: { projectId, name: 'Checked against the cache', ...fields },
  });
}

/** The priority a new task of the project gets when it asks for none. */
async function defaultPriorityOf(projectId: string): Promise<string> {
  const answer = await create(projectId);
  expect(answer.status, answer.text).toBe(201);
  return taskAnswer.parse(answer.json).priority;
}

async function updateThroughService(projectId: string, body: Record<string, unknown>) {
  const answer = await raw(`${t.service.baseUrl}/project/${projectId}`, {
    method: 'PUT',
    apiKey: t.seed.apiKey,
    body,
  });
  expect(answer.status, answer.text).toBe(200);
}

describe('create task after the project changes', () => {
  it('follows updates and deletes made through the service', async () => {
    // The seed's first project: priority on, default Medium.
    const projectId = t.seed.projects[0].projectId;
    expect(await defaultPriorityOf(projectId)).toBe('3');
    await updateThroughService(projectId, { defaultPriority: 'Urgent' });
    expect(await defaultPriorityOf(projectId)).toBe('1');
    await updateThroughService(projectId, { priority: false });
    const refused = await create(projectId, { priority: 2 });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('priority: the priority feature is off');
    // A refused write rolls back, which empties the cache: fill it again before the delete.
    expect(await defaultPriorityOf(projectId)).toBe('0');

    const deleted = await raw(`${t.service.baseUrl}/project/${projectId}`, {
      method: 'DELETE',
      apiKey: t.seed.apiKey,
    });
    expect(deleted.status, deleted.text).toBe(204);
    const gone = await create(projectId);
    expect(gone.status, gone.text).toBe(400);
    expect(gone.text).toContain('projectId: no project with this id');
  });

  it('follows writes committed by another connection', async () => {
    const projectId = t.seed.projects[1].projectId;
    expect(await defaultPriorityOf(projectId)).toBe('0');
    const other = openDatabase(t.dbPath);
    try {
      other.prepare('UPDATE projects SET default_priority = 3 WHERE id = ?').run(projectId);
      expect(await defaultPriorityOf(projectId)).toBe('3');
      // Another default status: new tasks start there.
      other
        .prepare('UPDATE statuses SET is_default = (type = 2) WHERE project_id = ?')
        .run(projectId);
      const inProgress = z
        .object({ id: z.string() })
        .parse(
          other.prepare('SELECT id FROM statuses WHERE project_id = ? AND type = 2').get(projectId),
        ).id;
      const answer = await create(projectId);
      const id = z.object({ taskId: z.string() }).parse(answer.json).taskId;
      const row = other.prepare('SELECT status_id FROM tasks WHERE id = ?').get(id);
      expect(row).toEqual({ status_id: inProgress });
    } finally {
      other.close();
    }
  });

  it('forgets what a rolled-back transaction showed it', async () => {
    const db = t.service.db;
    const caller = callerOf(db, t.seed.apiKey);
    const projectId = t.seed.projects[1].projectId;
    const before = await defaultPriorityOf(projectId);
    expect(() =>
      transact(db, () => {
        updateProject(db, caller, projectId, { defaultPriority: 'Low' });
        // Reads the project's settings as they are inside this transaction.
        const inside = JSON.parse(createTaskJson(db, caller, { projectId, name: 'Undone' }));
        expect(inside.priority).toBe('4');
        throw new Error('undo');
      }),
    ).toThrow('undo');
    expect(await defaultPriorityOf(projectId)).toBe(before);
  });
});

describe('create task after a failed group commit', () => {
  it('does not keep the settings the failed transaction showed', async () => {
    const temp = makeTempDir();
    const db = openDatabase(join(temp.dir, 'service.db'));
    try {
      const seed = seedDemoWorkspace(db);
      const caller = callerOf(db, seed.apiKey);
      const projectId = seed.projects[0].projectId;
      const commits = new GroupCommit(db);
      const ignore = () => {};
      let inside = '';
      const failed = new Promise<string>((resolve) => {
        commits.write(
          () => updateProject(db, caller, projectId, { defaultPriority: 'Low' }),
          ignore,
          ignore,
        );
        // Reads the settings inside the transaction, then makes the commit fail: a foreign
        // key checked at COMMIT (deferred).
        commits.write(
          () => {
            inside = JSON.parse(createTaskJson(db, caller, { projectId, name: 'Lost' })).priority;
            db.pragma('defer_foreign_keys = ON');
            db.prepare(
              'INSERT INTO task_subscribers (task_id, user_id, position) VALUES (?, ?, 0)',
            ).run('no-such-task', caller.userId);
          },
          () => resolve('committed'),
          (e) => resolve(`failed: ${e instanceof Error ? e.message : String(e)}`),
        );
      });
      expect(await failed).toMatch(/^failed: .*FOREIGN KEY/);
      expect(inside).toBe('4');
      const after = JSON.parse(createTaskJson(db, caller, { projectId, name: 'Kept' }));
      // The seed's first project: default Medium.
      expect(after.priority).toBe('3');
    } finally {
      db.close();
      temp.remove();
    }
  });
});
