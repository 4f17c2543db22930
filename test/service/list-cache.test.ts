/**
 * The list-tasks cache (src/service/list-cache.ts): a repeated list request is answered
 * without asking SQLite, and after every kind of write the service accepts — its own or
 * another connection's, and refused ones — each cached answer (whole list, filtered, paged
 * with its X-Total-Count) equals a fresh read over a second connection (an empty cache).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/service/db.js';
import { seedDemoWorkspace } from '../../src/service/index.js';
import { createTask } from '../../src/service/task-create.js';
import { listTasksJson } from '../../src/service/task-list.js';
import { type Caller, findCaller } from '../../src/service/workspaces.js';
import { raw, startTestService, type TestService } from './support.js';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});

afterAll(async () => {
  await t.stop();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const call = (url: string, method: 'GET' | 'POST' | 'PUT', body?: unknown) =>
  raw(url, { method, apiKey: t.seed.apiKey, body });

/** The queries compared: whole, both filters, and pages (one past the end). */
const QUERIES: Record<string, string>[] = [
  {},
  { complete: 'true' },
  { complete: 'false' },
  { limit: '2', offset: '1' },
  { complete: 'false', limit: '1', offset: '0' },
  { offset: '1000' },
];

/** The answer as the database holds it, over a new connection (so with an empty cache). */
function truthOf(projectId: string, query: Record<string, string>) {
  const fresh = openDatabase(t.dbPath);
  try {
    const caller = findCaller(fresh, t.seed.apiKey) as Caller;
    const { body, total } = listTasksJson(fresh, caller, {
      projectId,
      complete: query.complete as 'true' | 'false' | undefined,
      limit: query.limit === undefined ? undefined : Number(query.limit),
      offset: query.offset === undefined ? undefined : Number(query.offset),
    });
    return {
      json: JSON.parse(body.toString()) as unknown,
      total: total === undefined ? null : String(total),
    };
  } finally {
    fresh.close();
  }
}

async function listed(projectId: string, query: Record<string, string>) {
  const search = new URLSearchParams({ projectId, ...query });
  const res = await raw(`${t.service.baseUrl}/task?${search}`, { apiKey: t.seed.apiKey });
  expect(res.status).toBe(200);
  return res;
}

/** Every query twice through the service (the second from the cache), against the truth. */
async function expectFresh(projectId: string, step: string) {
  for (const query of QUERIES) {
    const what = `${step}: ${JSON.stringify(query)}`;
    const truth = truthOf(projectId, query);
    for (let i = 0; i < 2; i++) {
      const search = new URLSearchParams({ projectId, ...query });
      const res = await fetch(`${t.service.baseUrl}/task?${search}`, {
        headers: { apiKey: t.seed.apiKey },
      });
      expect(res.status, what).toBe(200);
      expect(await res.json(), what).toEqual(truth.json);
      expect(res.headers.get('x-total-count'), what).toBe(truth.total);
    }
  }
}

/** Counts the service's SQLite statement runs that read the tasks table. */
function countTaskReads(): () => number {
  const proto = Object.getPrototypeOf(t.service.db.prepare('SELECT 1')) as {
    get: (...args: unknown[]) => unknown;
  };
  const original = proto.get;
  let reads = 0;
  vi.spyOn(proto, 'get').mockImplementation(function (this: { source: string }, ...args) {
    if (/\bFROM tasks\b/.test(this.source)) reads++;
    return original.apply(this, args);
  });
  return () => reads;
}

describe('list tasks cache', () => {
  it('answers a repeated list request without reading the tasks table', async () => {
    const projectId = t.seed.projects[0].projectId;
    const reads = countTaskReads();
    const first = await listed(projectId, {});
    const afterFirst = reads();
    expect(afterFirst).toBeGreaterThan(0);
    const second = await listed(projectId, {});
    expect(reads()).toBe(afterFirst);
    expect(second.text).toBe(first.text);
    // A different page is a different answer.
    await listed(projectId, { limit: '1' });
    expect(reads()).toBeGreaterThan(afterFirst);
  });

  it('answers what the database holds after every write, accepted or refused', async () => {
    const project = t.seed.projects[0];
    const other = t.seed.projects[1];
    const [, bob, carol] = t.seed.users;
    await expectFresh(project.projectId, 'start');
    await expectFresh(other.projectId, 'start, other project');

    const created = await call(`${t.service.baseUrl}/task`, 'POST', {
      projectId: project.projectId,
      name: 'Listed',
      taskUsers: [bob.id],
    });
    expect(created.status).toBe(201);
    const taskId = (created.json as { taskId: string }).taskId;
    await expectFresh(project.projectId, 'created');
    await expectFresh(other.projectId, 'created, other project');

    const updateUrl = `${t.service.altUrl}/task/updateTask/${taskId}`;
    const details = await call(
      `${t.service.altUrl}/project/${project.projectId}/getCurrentProjectDetails`,
      'GET',
    );
    const statuses = (details.json as { Status: { _id: string; Type: number }[] }).Status;
    const done = statuses.find((s) => s.Type === 3)?._id;
    const open = statuses.find((s) => s.Type !== 3)?._id;
    const updates: [string, Record<string, unknown>][] = [
      ['name', { name: 'Renamed in the list' }],
      ['done', { statusId: done }],
      ['task name alias', { taskName: 'Renamed again' }],
      ['reopened', { statusId: open }],
      [
        'fields a list does not show',
        { priority: 1, dueDate: '2026-12-24', taskUsers: [carol.id] },
      ],
    ];
    for (const [step, fields] of updates) {
      const u = await call(updateUrl, 'PUT', { projectId: project.projectId, ...fields });
      expect(u.status, step).toBe(200);
      await expectFresh(project.projectId, step);
    }

    // Refused writes change nothing, and the answers stay those of the database.
    for (const body of [
      { projectId: other.projectId, name: 'Wrong project' },
      { projectId: project.projectId, name: 'Unknown group', groupId: 'a'.repeat(24) },
    ]) {
      expect((await call(updateUrl, 'PUT', body)).status).toBe(400);
      await expectFresh(project.projectId, 'refused update');
    }
    const refusedCreate = await call(`${t.service.baseUrl}/task`, 'POST', {
      projectId: project.projectId,
      name: 'Refused',
      statusId: 'b'.repeat(24),
    });
    expect(refusedCreate.status).toBe(400);
    await expectFresh(project.projectId, 'refused create');

    // Writes a list does not show: a comment, project settings, a project from a template.
    expect(
      (await call(`${t.service.baseUrl}/task/${taskId}/comments`, 'POST', { content: 'hi' }))
        .status,
    ).toBe(201);
    expect(
      (
        await call(`${t.service.baseUrl}/project/${project.projectId}`, 'PUT', {
          projectName: 'Renamed project',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(`${t.service.baseUrl}/project`, 'POST', {
          projectName: 'From template',
          templateId: project.projectId,
        })
      ).status,
    ).toBe(201);
    await expectFresh(project.projectId, 'comment and project changes');

    // Another connection's write (another process, such as a script, would do the same).
    const second = openDatabase(t.dbPath);
    try {
      const caller = findCaller(second, t.seed.apiKey) as Caller;
      createTask(second, caller, { projectId: project.projectId, name: 'From elsewhere' });
    } finally {
      second.close();
    }
    await expectFresh(project.projectId, 'write by another connection');
  });

  it('does not answer another workspace from the cache', async () => {
    // Seeded first: a write by another connection would empty the cache.
    const stranger = seedDemoWorkspace(t.dbPath);
    const url = `${t.service.baseUrl}/task?projectId=${t.seed.projects[0].projectId}`;
    expect((await call(url, 'GET')).status).toBe(200);
    expect((await raw(url, { apiKey: stranger.apiKey })).status).toBe(404);
    expect((await call(url, 'GET')).status).toBe(200);
  });
});
