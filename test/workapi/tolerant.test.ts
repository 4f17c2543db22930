/**
 * The tolerant reader: WorkClient against answers the way the hosted service gives them
 * (docs/hosted-service.md) — nulls, `_id`s, numbers as strings, plain dates, envelopes,
 * empty write answers, `{message}` and HTML error pages, the second address missing.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WorkClient } from '../../src/workapi/client.js';
import { fastTaskListItem, responses } from '../../src/workapi/contract.js';
import { failure } from '../service/support.js';
import { type ScriptedServer, startScriptedServer } from '../support/scripted-http.js';

let server: ScriptedServer;
const debug: string[] = [];
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  debug.length = 0;
});

const TASK = 'a1b2c3d4e5f6a1b2c3d4e5f6';
const PROJECT = 'b1b2c3d4e5f6a1b2c3d4e5f6';
const client = () =>
  new WorkClient({
    baseUrl: `${server.origin}/v1.0`,
    altUrl: `${server.origin}/api/v1`,
    apiKey: 'k',
    retry: { attempts: 1 },
    log: { debug: (m) => debug.push(m) },
  });
const answer = (body: unknown, status = 200) => {
  server.script = () => ({ status, body });
};
const BAD_GATEWAY =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1><script>x</script></body></html>';

describe('reading answers', () => {
  it('reads a task from a document store: _id, nulls, strings for numbers, odd dates', async () => {
    answer({
      _id: TASK,
      taskName: 'Ship it',
      projectId: PROJECT,
      description: null,
      status: 'false',
      groupId: null,
      dueDate: '2026-03-01',
      priority: 2,
      estimateTime: '5',
      milestoneId: 'not a number',
      subscribers: null,
      taskUsers: [{ taskUserId: 'u1' }, 'u2', { _id: 'u3' }, { nope: true }, null],
      createdAt: 1767225600000,
      extra: { kept: true },
    });
    const task = await client().getTask(TASK);
    expect(task).toMatchObject({
      taskId: TASK,
      taskName: 'Ship it',
      status: false,
      groupId: null,
      dueDate: '2026-03-01T00:00:00.000Z',
      priority: '2',
      estimateTime: 5,
      extra: { kept: true },
    });
    expect(task.description).toBeUndefined();
    expect(task.milestoneId).toBeUndefined();
    expect(task.subscribers).toBeUndefined();
    expect(task.taskUsers?.map((u) => u.taskUserId)).toEqual(['u1', 'u2', 'u3']);
  });

  it('normalises date-times with and without a zone, and epoch milliseconds, to ISO UTC', async () => {
    const due = async (dueDate: unknown) => {
      answer({ taskId: TASK, dueDate });
      return (await client().getTask(TASK)).dueDate;
    };
    expect(await due('2026-03-01T10:30:00')).toBe('2026-03-01T10:30:00.000Z');
    expect(await due('2026-03-01T10:30:00+02:00')).toBe('2026-03-01T08:30:00.000Z');
    expect(await due('2026-03-01 10:30:00.5+0200')).toBe('2026-03-01T08:30:00.500Z');
    expect(await due(1772361000000)).toBe('2026-03-01T10:30:00.000Z');
    expect(await due('1772361000000')).toBe('2026-03-01T10:30:00.000Z');
    expect(await due('2026-02-30')).toBeUndefined();
    expect(await due('soon')).toBeUndefined();
    expect(await due(null)).toBeNull();
  });

  it('reads 0/1 and "true"/"false" as booleans and numeric strings as numbers', async () => {
    answer({
      _id: PROJECT,
      Name: 42,
      IsMilestone: 1,
      IsEstimate: '0',
      IsGroupEnabled: 'true',
      MultiAsignee: 'maybe',
      Priority: { Enabled: 'false', Default: '3' },
      Status: [{ _id: 's1', Name: 'To Do', Type: '1', Index: '0', Default: 1 }, { Name: 'no id' }],
      ScmRepository: '7',
    });
    const d = await client().getProjectDetails(PROJECT);
    expect(d).toMatchObject({
      _id: PROJECT,
      Name: '42',
      IsMilestone: true,
      IsEstimate: false,
      IsGroupEnabled: true,
      Priority: { Enabled: false, Default: 3 },
      Status: [{ _id: 's1', Name: 'To Do', Type: 1, Index: 0, Default: true }],
      ScmRepository: 7,
    });
    expect(d.MultiAsignee).toBeUndefined();
  });

  it('reads the lists that failed on the first null: users, customers, groups', async () => {
    answer([{ id: 'u1', name: 'Ann', phone: null, email: null, isAdmin: 0 }]);
    expect(await client().listUsers()).toEqual([{ id: 'u1', name: 'Ann', isAdmin: false }]);
    answer([{ _id: 'c1', address: null, firstName: 'Bo', clients: null }]);
    expect(await client().listCustomers()).toMatchObject([{ customerId: 'c1', firstName: 'Bo' }]);
    answer([{ _id: 'g1', groupName: 'Backlog', Description: null }]);
    expect(await client().listProjectGroups(PROJECT)).toMatchObject([
      { groupId: 'g1', groupName: 'Backlog' },
    ]);
  });

  it('drops an unreadable list item (logged at debug with the operation), not the list', async () => {
    answer([{ taskId: 't1', taskName: 'one' }, { taskName: 'no id' }, 'junk', { _id: 't3' }]);
    const items = await client().listTasks({ projectId: PROJECT, complete: false });
    expect(items.map((t) => t.taskId)).toEqual(['t1', 't3']);
    expect(debug).toEqual([
      'listTasks: dropped list item 1, it has no readable taskId',
      'listTasks: dropped list item 2, it has no readable taskId',
    ]);
  });

  it('reads list items by hand exactly as the tolerant schema does', () => {
    const odd = fc.oneof(
      fc.string(),
      fc.constant('  '),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.record({ $oid: fc.string() }),
      fc.array(fc.string(), { maxLength: 2 }),
    );
    const item = fc.oneof(
      fc.record(
        { taskId: odd, _id: odd, id: odd, taskName: odd, extra: odd },
        { requiredKeys: [] },
      ),
      odd,
    );
    fc.assert(
      fc.property(item, (raw) => {
        const schema = responses.TaskListItem.safeParse(raw);
        const fast = fastTaskListItem.safeParse(raw);
        expect(fast.success).toBe(schema.success);
        if (fast.success && schema.success) expect(fast.data).toEqual(schema.data);
      }),
      { numRuns: 2000 },
    );
  });

  it('unwraps {data}, {result} and {<plural>: [...]} envelopes', async () => {
    answer({ data: { _id: TASK, taskName: 'wrapped' } });
    expect((await client().getTask(TASK)).taskName).toBe('wrapped');
    answer({ result: { data: [{ taskId: 't1' }] } });
    expect(await client().listTasks({ projectId: PROJECT })).toEqual([{ taskId: 't1' }]);
    answer({ tasks: [{ taskId: 't2' }], total: 1 });
    expect(await client().listTasks({ projectId: PROJECT })).toEqual([{ taskId: 't2' }]);
    answer({ success: true, users: [{ _id: 'u9' }] });
    expect((await client().listUsers()).map((u) => u.id)).toEqual(['u9']);
    answer({ data: { workspaceId: 'w1', workspaceName: 'Acme' } });
    expect(await client().verify()).toMatchObject({ workspaceId: 'w1' });
  });

  it('fails a read only when the id Worklink needs is missing', async () => {
    answer({ taskName: 'no id' });
    expect((await failure(client().getTask(TASK))).message).toBe(
      'The service answered without the taskId Worklink needs.',
    );
  });
});

describe('writes', () => {
  it('sends the name as both taskName and name', async () => {
    answer({ taskId: TASK });
    await client().createTask({ projectId: PROJECT, name: 'Both' });
    await client().updateTask(TASK, { projectId: PROJECT, name: 'Again' });
    const bodies = server.seen.map((s) => JSON.parse(s.body));
    expect(bodies[0]).toMatchObject({ name: 'Both', taskName: 'Both' });
    expect(bodies[1]).toMatchObject({ name: 'Again', taskName: 'Again' });
  });

  it('counts any 2xx as done; an empty, 204 or odd answer says nothing about what was made', async () => {
    server.script = () => ({ status: 204, body: '' });
    expect(await client().createTask({ projectId: PROJECT, name: 'x' })).toBeUndefined();
    server.script = () => ({ status: 200, body: 'OK' });
    expect(await client().createProject({ projectName: 'p' })).toBeUndefined();
    answer({ success: true }, 201);
    expect(await client().postComment(TASK, { content: 'hi' })).toBeUndefined();
    answer({ message: 'Task updated' });
    expect(await client().updateTask(TASK, { projectId: PROJECT })).toBeUndefined();
    answer({ data: { _id: PROJECT, projectName: 'P' } }, 200);
    expect(await client().updateProject(PROJECT, { description: 'd' })).toMatchObject({
      projectId: PROJECT,
      projectName: 'P',
    });
    // One request each: a write answered 2xx is never sent again.
    expect(server.seen).toHaveLength(5);
  });
});

describe('error answers', () => {
  const errorOf = async (status: number, body: unknown, headers?: Record<string, string>) => {
    server.script = () => ({ status, body, headers });
    return failure(client().getTask(TASK));
  };

  it('takes the message from error, message, error.message or errors[0].message', async () => {
    expect((await errorOf(400, { error: 'a' })).message).toBe('a');
    expect((await errorOf(400, { message: 'b' })).message).toBe('b');
    expect((await errorOf(400, { error: { message: 'c', code: 9 } })).message).toBe('c');
    expect((await errorOf(400, { errors: [{ message: 'd' }, { message: 'e' }] })).message).toBe(
      'd',
    );
    expect((await errorOf(400, { status: 'fail' })).message).toBe('HTTP 400');
  });

  it('never carries an HTML page: its title, else "HTTP 502"', async () => {
    const page = await errorOf(502, BAD_GATEWAY, { 'content-type': 'text/html' });
    expect(page).toMatchObject({ kind: 'server', message: '502 Bad Gateway', fromJson: false });
    const bare = await errorOf(502, '<html><body>oops</body></html>');
    expect(bare.message).toBe('HTTP 502');
  });

  it('treats a JSON 403 as a refused key and a non-JSON 403 as a server problem', async () => {
    expect(await errorOf(403, { message: 'Invalid API key' })).toMatchObject({ kind: 'auth' });
    const proxy = await errorOf(403, '<html><head><title>403 Forbidden</title></head></html>');
    expect(proxy).toMatchObject({ kind: 'server', message: '403 Forbidden' });
  });
});

describe('the second address', () => {
  it.each([401, 403, 405])('update task falls back to the main address on %i', async (status) => {
    server.script = (r) =>
      r.url.startsWith('/api/v1/')
        ? { status, body: { error: 'not here' } }
        : { status: 200, body: { _id: TASK, Name: 'n' } };
    expect(await client().updateTask(TASK, { projectId: PROJECT })).toMatchObject({ _id: TASK });
    expect(server.seen.map((s) => s.url)).toEqual([
      `/api/v1/task/updateTask/${TASK}`,
      `/v1.0/task/updateTask/${TASK}`,
    ]);
  });

  it('update task falls back on a non-JSON answer; when both fail, the telling error is kept', async () => {
    server.script = (r) =>
      r.url.startsWith('/api/v1/')
        ? { status: 502, body: BAD_GATEWAY }
        : { status: 200, body: { _id: TASK } };
    expect(await client().updateTask(TASK, { projectId: PROJECT })).toMatchObject({ _id: TASK });
    server.reset();
    server.script = (r) =>
      r.url.startsWith('/api/v1/')
        ? { status: 400, body: { error: 'priority: must be from 0 to 4' } }
        : { status: 404, body: { error: 'no route' } };
    // A 400 is the service's own answer: not sent elsewhere.
    const e = await failure(client().updateTask(TASK, { projectId: PROJECT }));
    expect(e).toMatchObject({ status: 400, kind: 'invalid' });
    expect(server.seen).toHaveLength(1);
    server.reset();
    server.script = (r) =>
      r.url.startsWith('/api/v1/')
        ? { status: 401, body: { error: 'apiKey: unknown key' } }
        : { status: 404, body: { error: 'no route' } };
    const both = await failure(client().updateTask(TASK, { projectId: PROJECT }));
    expect(both).toMatchObject({ status: 401, kind: 'auth' });
    expect(server.seen).toHaveLength(2);
  });

  it('project details fall back to the main address, then to get project', async () => {
    const details = `/project/${PROJECT}/getCurrentProjectDetails`;
    server.script = (r) =>
      r.url === `/v1.0${details}`
        ? { status: 200, body: { _id: PROJECT, Name: 'Main' } }
        : { status: 404, body: '' };
    expect((await client().getProjectDetails(PROJECT)).Name).toBe('Main');
    expect(server.seen.map((s) => s.url)).toEqual([`/api/v1${details}`, `/v1.0${details}`]);

    server.reset();
    server.script = (r) =>
      r.url === `/v1.0/project/${PROJECT}`
        ? { status: 200, body: { _id: PROJECT, projectName: 'Plain', description: null } }
        : { status: 405, body: BAD_GATEWAY };
    const c = client();
    const degraded = await c.getProjectDetails(PROJECT);
    // Flags unknown: forms show every field they cannot rule out.
    expect(degraded).toEqual({ _id: PROJECT, Name: 'Plain' });
    expect(server.seen.map((s) => s.url)).toEqual([
      `/api/v1${details}`,
      `/v1.0${details}`,
      `/v1.0/project/${PROJECT}`,
    ]);
    server.reset();
    await c.getProjectDetails(PROJECT);
    expect(server.seen.map((s) => s.url)).toEqual([`/v1.0/project/${PROJECT}`]);
  });
});
