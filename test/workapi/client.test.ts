/**
 * WorkClient's transport behaviour against a scripted local HTTP server: headers, request
 * validation, retries, Retry-After, timeouts, the update-task fallback and tolerant parsing.
 * (Its behaviour against the real embedded service is in contract.test.ts.)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WorkClient } from '../../src/workapi/client.js';
import { failure } from '../service/support.js';
import { type ScriptedServer, startScriptedServer } from '../support/scripted-http.js';

let server: ScriptedServer;
let origin: string;
beforeAll(async () => {
  server = await startScriptedServer();
  origin = server.origin;
});
afterAll(() => server.close());
afterEach(() => server.reset());
const TASK = 'a1b2c3d4e5f6a1b2c3d4e5f6';
const client = (extra: Partial<ConstructorParameters<typeof WorkClient>[0]> = {}) =>
  new WorkClient({
    baseUrl: `${origin}/v1.0`,
    altUrl: `${origin}/api/v1`,
    apiKey: 'secret-key',
    retry: { attempts: 3, baseDelayMs: 5 },
    ...extra,
  });

describe('WorkClient transport', () => {
  it('sends the apiKey header, JSON content type on bodies, and the spec paths', async () => {
    server.script = () => ({ status: 201, body: { taskId: TASK, taskName: 'x' } });
    await client().createTask({ projectId: 'p'.repeat(24), name: 'x', priority: 2 });
    server.script = () => ({ status: 200, body: [] });
    await client().listTasks({ projectId: 'p'.repeat(24), complete: false });
    expect(server.seen[0]).toMatchObject({ method: 'POST', url: '/v1.0/task' });
    expect(server.seen[0]?.headers.apikey).toBe('secret-key');
    expect(server.seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[0]?.body ?? '')).toEqual({
      projectId: 'p'.repeat(24),
      name: 'x',
      taskName: 'x',
      priority: 2,
    });
    expect(server.seen[1]).toMatchObject({
      method: 'GET',
      url: `/v1.0/task?projectId=${'p'.repeat(24)}&complete=false`,
    });
    expect(server.seen[1]?.headers['content-type']).toBeUndefined();
  });

  it('never sends a request that breaks the contract', async () => {
    const bad = await failure(client().createTask({ projectId: 'p', priority: 9 }));
    expect(bad).toMatchObject({
      kind: 'invalid',
      notSent: true,
      message: 'priority: must be from 0 to 4',
    });
    const date = await failure(client().createTask({ projectId: 'p', dueDate: '2026-02-30' }));
    expect(date.message).toBe('dueDate: is not a date on the calendar');
    const shortId = await failure(client().getTask('short'));
    expect(shortId.message).toMatch(/taskId: must be an id of at least 10 characters/);
    expect(server.seen).toHaveLength(0);
  });

  it('retries reads on 5xx with backoff, then succeeds', async () => {
    server.script = (_r, n) =>
      n < 3 ? { status: 503, body: { error: 'busy' } } : { status: 200, body: { taskId: TASK } };
    const task = await client().getTask(TASK);
    expect(task.taskId).toBe(TASK);
    expect(server.seen).toHaveLength(3);
  });

  it('gives up on reads after the last attempt with the service message', async () => {
    server.script = () => ({ status: 500, body: { message: 'database down' } });
    const e = await failure(client().getTask(TASK));
    expect(e).toMatchObject({
      status: 500,
      kind: 'server',
      message: 'database down',
      operation: 'getTask',
    });
    expect(server.seen).toHaveLength(3);
  });

  it('never retries a write that reached the service', async () => {
    server.script = () => ({ status: 502, body: 'Bad gateway' });
    const e = await failure(client().createTask({ projectId: 'p'.repeat(24), name: 'once' }));
    expect(e).toMatchObject({ status: 502, kind: 'server', message: 'Bad gateway' });
    expect(server.seen).toHaveLength(1);
  });

  it('waits out 429 Retry-After, for writes too', async () => {
    server.script = (_r, n) =>
      n === 1
        ? { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0.05' } }
        : { status: 201, body: { commentId: 'c'.repeat(24), content: 'hi' } };
    const comment = await client().postComment(TASK, { content: 'hi' });
    expect(comment?.commentId).toBe('c'.repeat(24));
    expect(server.seen).toHaveLength(2);
  });

  it('reports a 429 whose Retry-After is too long instead of hanging', async () => {
    server.script = () => ({
      status: 429,
      body: { error: 'quota' },
      headers: { 'retry-after': '3600' },
    });
    const e = await failure(client().getTask(TASK));
    expect(e).toMatchObject({ kind: 'rate_limited', status: 429, message: 'quota' });
    expect(server.seen).toHaveLength(1);
  });

  it('maps 401 and 403 to auth and 404 to not_found', async () => {
    server.script = () => ({ status: 401, body: { error: 'apiKey: unknown key' } });
    expect(await failure(client().verify())).toMatchObject({
      kind: 'auth',
      message: 'apiKey: unknown key',
    });
    server.script = () => ({ status: 403, body: { error: 'forbidden' } });
    expect((await failure(client().verify())).kind).toBe('auth');
    server.script = () => ({ status: 404, body: { error: 'task not found' } });
    expect((await failure(client().getTask(TASK))).kind).toBe('not_found');
  });

  it('times out a slow answer and says so', async () => {
    server.script = () => ({ status: 200, body: { taskId: TASK }, delayMs: 400 });
    const e = await failure(client({ timeoutMs: 100, retry: { attempts: 1 } }).getTask(TASK));
    expect(e).toMatchObject({ kind: 'timeout', status: 0 });
  });

  it('retries a write only when the connection was refused (nothing sent)', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const c = new WorkClient({
      baseUrl: `http://127.0.0.1:${port}/v1.0`,
      altUrl: `http://127.0.0.1:${port}/api/v1`,
      apiKey: 'k',
      retry: { attempts: 2, baseDelayMs: 5 },
    });
    const e = await failure(c.createTask({ projectId: 'p'.repeat(24) }));
    expect(e).toMatchObject({ kind: 'network', notSent: true });
  });

  it('updates a task on the alt address and falls back to base on 404', async () => {
    const updated = { _id: TASK, Name: 'n', Priority: 'High' };
    server.script = (r) =>
      r.url.startsWith('/api/v1/')
        ? { status: 404, body: { error: 'no route' } }
        : { status: 200, body: updated };
    const c = client();
    const first = await c.updateTask(TASK, { projectId: 'p'.repeat(24), name: 'n' });
    expect(first?.Priority).toBe(2);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      `PUT /api/v1/task/updateTask/${TASK}`,
      `PUT /v1.0/task/updateTask/${TASK}`,
    ]);
    // The client remembers where update task lives.
    server.reset();
    await c.updateTask(TASK, { projectId: 'p'.repeat(24) });
    expect(server.seen.map((s) => s.url)).toEqual([`/v1.0/task/updateTask/${TASK}`]);
  });

  it('parses responses tolerantly: unknown fields kept, priority names, one object as a list', async () => {
    server.script = () => ({
      status: 200,
      body: { taskId: TASK, priority: 'High', extra: { a: 1 } },
    });
    const task = await client().getTask(TASK);
    expect(task.priority).toBe('2');
    expect((task as Record<string, unknown>).extra).toEqual({ a: 1 });
    server.script = () => ({
      status: 200,
      body: { id: 'u1', name: 'Ann', email: 'ann@example.com' },
    });
    expect(await client().listUsers()).toEqual([
      { id: 'u1', name: 'Ann', email: 'ann@example.com' },
    ]);
  });

  it('rejects a response of the wrong shape with a clear message', async () => {
    server.script = () => ({ status: 200, body: { taskName: 'no id' } });
    const e = await failure(client().getTask(TASK));
    expect(e).toMatchObject({ kind: 'server' });
    expect(e.message).toBe('The service answered without the taskId Worklink needs.');
    server.script = () => ({ status: 200, body: '<html>' });
    expect((await failure(client().getTask(TASK))).message).toMatch(/not JSON/);
  });
});

describe('WorkClient list paging', () => {
  const PROJECT = 'p'.repeat(24);
  const all = Array.from({ length: 45 }, (_, i) => ({
    taskId: `${String(i).padStart(2, '0')}${'a'.repeat(22)}`,
    taskName: `Task ${i + 1}`,
  }));

  it('asks for the page, and cuts it from the whole list when the service ignores paging', async () => {
    // A service that knows nothing of limit/offset: every task, every time.
    server.script = () => ({ status: 200, body: all });
    const page = await client().listTasksPage({ projectId: PROJECT }, { limit: 20, offset: 20 });
    expect(page).toEqual({ tasks: all.slice(20, 40), total: 45 });
    const url = new URL(server.seen[0]?.url ?? '', origin);
    expect(url.searchParams.get('limit')).toBe('20');
    expect(url.searchParams.get('offset')).toBe('20');
    const last = await client().listTasksPage({ projectId: PROJECT }, { limit: 20, offset: 40 });
    expect(last).toEqual({ tasks: all.slice(40), total: 45 });
  });

  it('takes a paged answer as it is, with the total from X-Total-Count', async () => {
    server.script = () => ({
      status: 200,
      body: all.slice(20, 40),
      headers: { 'x-total-count': '45' },
    });
    const page = await client().listTasksPage({ projectId: PROJECT }, { limit: 20, offset: 20 });
    expect(page).toEqual({ tasks: all.slice(20, 40), total: 45 });
  });
});
