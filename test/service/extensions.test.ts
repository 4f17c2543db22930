/**
 * The embedded service's extensions (docs/service-extensions.md), over real HTTP, answers
 * checked with the strict schemas: `taskNumber` in Task and list answers, `GET /project`,
 * `DELETE /project/{id}` (also with a JSON content type and an empty body), file sizes as
 * numbers of bytes, unknown list query parameters ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject } from '../../src/service/projects.js';
import { WorkClient } from '../../src/workapi/client.js';
import { formatFileSize, strictResponses } from '../../src/workapi/contract.js';
import { failure, raw, startTestService, type TestService } from './support.js';

let t: TestService;
let client: WorkClient;
const base = (path: string) => `${t.service.baseUrl}${path}`;

beforeAll(async () => {
  t = await startTestService();
  client = new WorkClient({
    baseUrl: t.service.baseUrl,
    altUrl: t.service.altUrl,
    apiKey: t.seed.apiKey,
    retry: { attempts: 1 },
  });
});
afterAll(async () => {
  await t?.stop();
});

const website = () => t.seed.projects[0]!.projectId;

describe('taskNumber in Task and list answers', () => {
  it('create, get and list answers carry the task number (strict shapes)', async () => {
    const created = await raw(base('/task'), {
      apiKey: t.seed.apiKey,
      body: { projectId: website(), name: 'Numbered' },
    });
    expect(created.status).toBe(201);
    const task = strictResponses.Task.parse(created.json);
    expect(task.taskNumber).toBeGreaterThan(0);

    const got = strictResponses.Task.parse(
      (await raw(base(`/task/${task.taskId}`), { apiKey: t.seed.apiKey })).json,
    );
    expect(got.taskNumber).toBe(task.taskNumber);

    const list = strictResponses.TaskList.parse(
      (await raw(base(`/task?projectId=${website()}`), { apiKey: t.seed.apiKey })).json,
    );
    expect(list.find((i) => i.taskId === task.taskId)?.taskNumber).toBe(task.taskNumber);
    const numbers = list.map((i) => i.taskNumber);
    expect(numbers).toEqual([...numbers].sort((a, b) => (a ?? 0) - (b ?? 0)));

    // Through WorkClient's tolerant reader too.
    expect((await client.getTask(task.taskId)).taskNumber).toBe(task.taskNumber);
    const items = await client.listTasks({ projectId: website() });
    expect(items.find((i) => i.taskId === task.taskId)?.taskNumber).toBe(task.taskNumber);
  });

  it('ignores unknown query parameters on list tasks', async () => {
    const plain = await raw(base(`/task?projectId=${website()}`), { apiKey: t.seed.apiKey });
    const extra = await raw(base(`/task?projectId=${website()}&page=2&search=x&sort=name`), {
      apiKey: t.seed.apiKey,
    });
    expect(extra.status).toBe(200);
    expect(extra.json).toEqual(plain.json);
  });
});

describe('GET {base}/project', () => {
  it('lists the workspace projects as Project objects, and only this workspace', async () => {
    const answer = await raw(base('/project'), { apiKey: t.seed.apiKey });
    expect(answer.status).toBe(200);
    const projects = strictResponses.ProjectList.parse(answer.json);
    const names = projects.map((p) => p.projectName);
    for (const p of t.seed.projects) expect(names).toContain(p.projectName);
    expect(projects.every((p) => p.workspaceId === t.seed.workspaceId)).toBe(true);
    expect((await client.listProjects())?.map((p) => p.projectId).sort()).toEqual(
      projects.map((p) => p.projectId).sort(),
    );
  });

  it('needs a key', async () => {
    expect((await raw(base('/project'))).status).toBe(401);
  });
});

describe('DELETE {base}/project/{projectId}', () => {
  const fresh = (name: string) =>
    insertProject(
      t.service.db,
      { workspaceId: t.seed.workspaceId, userId: t.seed.users[0]!.id },
      {
        name,
        groups: ['Backlog'],
      },
    );

  it('answers 204 with no body, with a JSON content type and an empty body', async () => {
    const projectId = fresh('Doomed');
    const task = strictResponses.Task.parse(
      (
        await raw(base('/task'), {
          apiKey: t.seed.apiKey,
          body: { projectId, name: 'Goes too', taskUsers: [t.seed.users[1]!.id] },
        })
      ).json,
    );
    await raw(base(`/task/${task.taskId}/comments`), {
      apiKey: t.seed.apiKey,
      body: { content: 'bye' },
    });
    const answer = await raw(base(`/project/${projectId}`), {
      method: 'DELETE',
      apiKey: t.seed.apiKey,
      body: '',
      contentType: 'application/json',
    });
    expect([answer.status, answer.text]).toEqual([204, '']);
    // The project and its tasks are gone: 404 as for an id that never was.
    expect((await raw(base(`/project/${projectId}`), { apiKey: t.seed.apiKey })).status).toBe(404);
    expect((await raw(base(`/task/${task.taskId}`), { apiKey: t.seed.apiKey })).status).toBe(404);
    const listed = strictResponses.ProjectList.parse(
      (await raw(base('/project'), { apiKey: t.seed.apiKey })).json,
    );
    expect(listed.some((p) => p.projectId === projectId)).toBe(false);
  });

  it('through WorkClient (no body at all); unknown and foreign projects → 404', async () => {
    const projectId = fresh('Also doomed');
    await client.deleteProject(projectId);
    const again = await failure(client.deleteProject(projectId));
    expect(again.status).toBe(404);
    const none = await raw(base(`/project/${'f'.repeat(24)}`), {
      method: 'DELETE',
      apiKey: t.seed.apiKey,
    });
    expect(none.status).toBe(404);
    expect(strictResponses.ErrorBody.parse(none.json).error).toMatch(/^projectId: /);
    expect(
      (await raw(base(`/project/${website()}`), { method: 'DELETE' })).status,
      'no key, nothing deleted',
    ).toBe(401);
    expect((await raw(base(`/project/${website()}`), { apiKey: t.seed.apiKey })).status).toBe(200);
  });

  it('a write that needs a body still refuses an empty one', async () => {
    const answer = await raw(base('/task'), { apiKey: t.seed.apiKey, body: '' });
    expect(answer.status).toBe(400);
    expect(strictResponses.ErrorBody.parse(answer.json).error).toMatch(/^body: /);
  });
});

describe('files[].size as a number of bytes', () => {
  it('is kept as the spec string', async () => {
    expect(formatFileSize(1536)).toBe('1.50 KB');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5.00 MB');
    expect(formatFileSize(3 * 1024 ** 3)).toBe('3.00 GB');
    const created = await raw(base('/task'), {
      apiKey: t.seed.apiKey,
      body: {
        projectId: website(),
        name: 'With a file',
        files: [{ fileType: 'pdf', href: 'https://example.com/a.pdf', name: 'a.pdf', size: 1536 }],
      },
    });
    expect(created.status).toBe(201);
    const taskId = strictResponses.Task.parse(created.json).taskId;
    const updated = await client.updateTask(taskId, { projectId: website(), name: 'With a file' });
    expect(updated?.Files?.[0]?.size).toBe('1.50 KB');
    const bad = await raw(base('/task'), {
      apiKey: t.seed.apiKey,
      body: {
        projectId: website(),
        files: [{ fileType: 'pdf', href: 'https://example.com/a.pdf', name: 'a.pdf', size: -1 }],
      },
    });
    expect(bad.status).toBe(400);
  });
});
