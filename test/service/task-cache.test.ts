/**
 * The get-task cache (src/service/task-cache.ts) never serves a stale Task: after every kind
 * of write the service accepts — and after refused ones — the answer of the running service
 * (cached) equals a fresh read over a second connection (its own, empty cache).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db.js';
import { seedDemoWorkspace } from '../../src/service/index.js';
import { getTaskJson } from '../../src/service/task-reads.js';
import { type Caller, findCaller } from '../../src/service/workspaces.js';
import { raw, startTestService, type TestService } from './support.js';

let t: TestService;

beforeAll(async () => {
  t = await startTestService();
});

afterAll(async () => {
  await t.stop();
});

/** The task as the database holds it, read over a new connection (so with an empty cache). */
function truthOf(taskId: string): Record<string, unknown> {
  const fresh = openDatabase(t.dbPath);
  try {
    const caller = findCaller(fresh, t.seed.apiKey) as Caller;
    return JSON.parse(getTaskJson(fresh, caller, taskId));
  } finally {
    fresh.close();
  }
}

const call = (url: string, method: 'GET' | 'POST' | 'PUT', body?: unknown) =>
  raw(url, { method, apiKey: t.seed.apiKey, body });

/** Reads the task through the service (twice: the second read is the cached one). */
async function expectFresh(taskId: string, step: string) {
  const url = `${t.service.baseUrl}/task/${taskId}`;
  const first = await call(url, 'GET');
  const second = await call(url, 'GET');
  expect(first.status, step).toBe(200);
  const truth = truthOf(taskId);
  expect(first.json, step).toEqual(truth);
  expect(second.json, step).toEqual(truth);
  return truth;
}

describe('get task after writes', () => {
  it('answers what the database holds after every write, accepted or refused', async () => {
    const project = t.seed.projects[0];
    const [, bob, carol] = t.seed.users;
    const created = await call(`${t.service.baseUrl}/task`, 'POST', {
      projectId: project.projectId,
      name: 'Cached',
      taskUsers: [bob.id],
    });
    expect(created.status).toBe(201);
    const taskId = (created.json as { taskId: string }).taskId;
    await expectFresh(taskId, 'created');

    const updateUrl = `${t.service.altUrl}/task/updateTask/${taskId}`;
    const updates: [string, Record<string, unknown>][] = [
      ['name and description', { name: 'Renamed', description: 'Now described' }],
      ['priority', { priority: 1 }],
      ['due date', { dueDate: '2026-12-24' }],
      ['group', { groupId: project.groups[1].groupId }],
      ['assignees', { taskUsers: [carol.id] }],
      ['estimate and milestone', { estimateTime: 8, milestoneId: 3 }],
    ];
    for (const [step, fields] of updates) {
      const u = await call(updateUrl, 'PUT', { projectId: project.projectId, ...fields });
      expect(u.status, step).toBe(200);
      const got = await expectFresh(taskId, step);
      for (const [field, value] of Object.entries(fields)) {
        if (field === 'name') expect(got.taskName, step).toBe(value);
        if (field === 'description') expect(got.description, step).toBe(value);
        if (field === 'priority') expect(got.priority, step).toBe(String(value));
        if (field === 'groupId') expect(got.groupId, step).toBe(value);
      }
    }

    // Status: the boolean follows the new status's Type.
    const details = await call(
      `${t.service.altUrl}/project/${project.projectId}/getCurrentProjectDetails`,
      'GET',
    );
    const statuses = (details.json as { Status: { _id: string; Type: number }[] }).Status;
    const done = statuses.find((s) => s.Type === 3)?._id;
    const u = await call(updateUrl, 'PUT', { projectId: project.projectId, statusId: done });
    expect(u.status).toBe(200);
    expect((await expectFresh(taskId, 'status')).status).toBe(true);

    // Refused updates change nothing, and the answer stays the same.
    const before = await expectFresh(taskId, 'before refusals');
    for (const body of [
      { projectId: t.seed.projects[1].projectId, name: 'Wrong project' },
      { projectId: project.projectId, name: 'Unknown group', groupId: 'a'.repeat(24) },
      { projectId: project.projectId, priority: 9 },
    ]) {
      expect((await call(updateUrl, 'PUT', body)).status).toBe(400);
      expect(await expectFresh(taskId, 'refused')).toEqual(before);
    }

    // Writes elsewhere that a Task does not show: comments, project settings, other tasks.
    expect(
      (await call(`${t.service.baseUrl}/task/${taskId}/comments`, 'POST', { content: 'hi' }))
        .status,
    ).toBe(201);
    const projectUpdate = await call(`${t.service.baseUrl}/project/${project.projectId}`, 'PUT', {
      projectName: 'Renamed project',
      priority: false,
      defaultPriority: 'Low',
      estimate: false,
      milestone: false,
    });
    expect(projectUpdate.status).toBe(200);
    expect(
      (
        await call(`${t.service.baseUrl}/project`, 'POST', {
          projectName: 'From template',
          templateId: project.projectId,
        })
      ).status,
    ).toBe(201);
    expect(await expectFresh(taskId, 'after comment and project changes')).toEqual(before);
  });

  it('does not answer a task of another workspace from the cache', async () => {
    const task = await call(`${t.service.baseUrl}/task`, 'POST', {
      projectId: t.seed.projects[0].projectId,
      name: 'Mine',
    });
    const url = `${t.service.baseUrl}/task/${(task.json as { taskId: string }).taskId}`;
    expect((await call(url, 'GET')).status).toBe(200);
    // A second workspace in the same file, seeded after the cache was filled.
    const stranger = seedDemoWorkspace(t.dbPath);
    expect((await raw(url, { apiKey: stranger.apiKey })).status).toBe(404);
    expect((await call(url, 'GET')).status).toBe(200);
  });
});
