/**
 * The rows create task checks against are cached (src/service/reference-cache.ts). A create
 * never sees a project's settings or statuses as they were before: after an update or delete
 * through the service, after a write by another connection, after a rolled-back transaction
 * that had changed them, and after a shared (group) commit that failed. The project's largest
 * task number, kept with them, numbers on after a rolled-back create and after another
 * connection's; and data_version, read once per group commit, is read again after it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Db, openDatabase, transact } from '../../src/service/db.js';
import { GroupCommit } from '../../src/service/group-commit.js';
import { seedDemoWorkspace } from '../../src/service/index.js';
import { updateProject } from '../../src/service/projects.js';
import { createTaskJson } from '../../src/service/task-create.js';
import { getTaskJson } from '../../src/service/task-reads.js';
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
              `INSERT INTO task_files (id, task_id, position, file_type, href, name, size)
               VALUES ('f1', 'no-such-task', 0, 'link', 'https://example.com', 'f', '1')`,
            ).run();
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

/** Two connections to one seeded file: `db` writes through a GroupCommit, `other` beside it. */
function sharedFile() {
  const temp = makeTempDir();
  const path = join(temp.dir, 'service.db');
  const db = openDatabase(path);
  const seed = seedDemoWorkspace(db);
  const other = openDatabase(path);
  const caller = callerOf(db, seed.apiKey);
  const projectId = seed.projects[1].projectId;
  const commits = new GroupCommit(db);
  /** A create through the group commit: its task number, or what failed. */
  const createQueued = (after?: () => void) =>
    new Promise<number | string>((resolve) => {
      commits.write(
        () => {
          const task = JSON.parse(createTaskJson(db, caller, { projectId, name: 'Numbered' }));
          after?.();
          return z.object({ taskNumber: z.number() }).parse(task).taskNumber;
        },
        resolve,
        (e) => resolve(`failed: ${e instanceof Error ? e.message : String(e)}`),
      );
    });
  const close = () => {
    other.close();
    db.close();
    temp.remove();
  };
  return { db, other, caller, projectId, commits, createQueued, close };
}

describe("a project's task numbers, kept with its references", () => {
  it('numbers on from a create that was rolled back, and from another connection', async () => {
    const f = sharedFile();
    try {
      const first = await f.createQueued();
      expect(typeof first).toBe('number');
      // Took the next number, then failed: the number is free again.
      const undone = f.createQueued(() => {
        throw new Error('undo');
      });
      const next = f.createQueued();
      expect(await undone).toBe('failed: undo');
      expect(await next).toBe(Number(first) + 1);
      // Another connection creates in the project: the next number comes after its task.
      const theirs = JSON.parse(
        createTaskJson(f.other, f.caller, { projectId: f.projectId, name: 'Elsewhere' }),
      );
      expect(theirs.taskNumber).toBe(Number(first) + 2);
      expect(await f.createQueued()).toBe(Number(first) + 3);
    } finally {
      f.close();
    }
  });
});

describe('data_version, read once while the group commit holds the write lock', () => {
  it('is read again once the lock is let go: a read then sees what another connection did', async () => {
    const f = sharedFile();
    try {
      const number = await f.createQueued();
      const { id } = z
        .object({ id: z.string() })
        .parse(
          f.db
            .prepare('SELECT id FROM tasks WHERE project_id = ? AND task_number = ?')
            .get(f.projectId, number),
        );
      const name = () => JSON.parse(getTaskJson(f.db, f.caller, id)).taskName;
      expect(name()).toBe('Numbered');
      f.other.prepare("UPDATE tasks SET name = 'Renamed elsewhere' WHERE id = ?").run(id);
      expect(name()).toBe('Renamed elsewhere');
    } finally {
      f.close();
    }
  });
});
