/**
 * Reads under way are shared (src/workapi/shared-reads.ts): against a local HTTP server that
 * holds its answers, identical reads at once send one request, each caller gets its own
 * object, and a write closes the reads under way it may change to later readers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WorkClient } from '../../src/workapi/client.js';
import { type ScriptedServer, startScriptedServer } from '../support/scripted-http.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

const TASK = 'a1b2c3d4e5f6a1b2c3d4e5f6';
const OTHER = 'f6e5d4c3b2a1f6e5d4c3b2a1';
const PROJECT = 'p'.repeat(24);
const client = (apiKey = 'shared-reads-key') =>
  new WorkClient({ baseUrl: `${server.origin}/v1.0`, altUrl: `${server.origin}/api/v1`, apiKey });
const gets = () => server.seen.filter((s) => s.method === 'GET');

describe('shared reads', () => {
  it('sends one request for identical reads under way; each caller gets its own answer', async () => {
    // Reads are answered after 150 ms, so the three below are all under way together.
    server.script = (req) => ({
      status: 200,
      delayMs: 150,
      body: { taskId: req.url.includes(OTHER) ? OTHER : TASK, taskName: 'Shared' },
    });
    const work = client();
    const [a, b, c, other] = await Promise.all([
      work.getTask(TASK),
      work.getTask(TASK),
      work.getTask(TASK),
      work.getTask(OTHER),
    ]);
    expect(gets().map((s) => s.url)).toEqual([`/v1.0/task/${TASK}`, `/v1.0/task/${OTHER}`]);
    expect([a.taskId, b.taskId, c.taskId, other.taskId]).toEqual([TASK, TASK, TASK, OTHER]);
    // Parsed once, but each caller has its own object: changing it changes no one else's.
    expect(new Set([a, b, c]).size).toBe(3);
    a.taskName = 'changed here';
    c.taskName = 'and here';
    expect(b.taskName).toBe('Shared');
    expect(a.taskName).toBe('changed here');

    // Answered: the next read asks again (nothing is kept).
    await work.getTask(TASK);
    expect(gets()).toHaveLength(3);
  });

  it('never shares between keys, and shares a paged list with its total', async () => {
    server.script = () => ({
      status: 200,
      delayMs: 100,
      body: [{ taskId: TASK, taskName: 'one' }],
      headers: { 'x-total-count': '7' },
    });
    const work = client();
    const pages = await Promise.all([
      work.listTasksPage({ projectId: PROJECT }, { limit: 20, offset: 0 }),
      work.listTasksPage({ projectId: PROJECT }, { limit: 20, offset: 0 }),
      client('another-key').listTasksPage({ projectId: PROJECT }, { limit: 20, offset: 0 }),
    ]);
    expect(gets()).toHaveLength(2);
    expect(pages.map((p) => p.total)).toEqual([7, 7, 7]);
  });

  it('a read asked for after a write on its task ended does not take an answer read before it', async () => {
    server.script = (req) =>
      req.method === 'GET'
        ? { status: 200, delayMs: 300, body: { taskId: TASK, taskName: 'read' } }
        : { status: 200, body: { _id: TASK, Name: 'renamed' } };
    const work = client();
    const before = work.getTask(TASK);
    // Another client (another person's key) writes while that read is under way.
    await new Promise((r) => setTimeout(r, 50));
    await client('writer-key').updateTask(TASK, { projectId: PROJECT, name: 'renamed' });
    const after = work.getTask(TASK);
    await Promise.all([before, after]);
    expect(gets()).toHaveLength(2);
  });

  it('a new task closes the lists under way, not the reads of other tasks', async () => {
    server.script = (req) =>
      req.method === 'GET'
        ? {
            status: 200,
            delayMs: 300,
            body: req.url.startsWith('/v1.0/task?') ? [] : { taskId: TASK, taskName: 'read' },
          }
        : { status: 201, body: { taskId: OTHER, taskName: 'new' } };
    const work = client();
    const task = work.getTask(TASK);
    const list = work.listTasks({ projectId: PROJECT });
    await new Promise((r) => setTimeout(r, 50));
    await client('writer-key').createTask({ projectId: PROJECT, name: 'new' });
    // Asked after the create ended: the task's read is joined, the list is asked again.
    await Promise.all([task, list, work.getTask(TASK), work.listTasks({ projectId: PROJECT })]);
    expect(gets().map((s) => s.url.split('?')[0])).toEqual([
      `/v1.0/task/${TASK}`,
      '/v1.0/task',
      '/v1.0/task',
    ]);
  });

  it('a failed read fails every caller who joined it, and the next read asks again', async () => {
    server.script = (_req, n) =>
      n === 1
        ? { status: 404, delayMs: 100, body: { message: 'no such task' } }
        : { status: 200, body: { taskId: TASK } };
    const work = client();
    const results = await Promise.allSettled([work.getTask(TASK), work.getTask(TASK)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((await work.getTask(TASK)).taskId).toBe(TASK);
    expect(gets()).toHaveLength(2);
  });
});
