/**
 * The embedded service's task.updated and task.commented events: recorded with the change,
 * delivered signed and in order like task.created, with what changed (before and after);
 * an update that changes nothing records none; undelivered ones survive a restart.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServiceHandle, startService } from '../../src/service/index.js';
import { strictResponses } from '../../src/workapi/contract.js';
import { verifyEventSignature } from '../../src/workapi/event-signature.js';
import { SureWorkClient } from '../support/sure-work.js';
import { startTestService, type TestService, waitFor } from './support.js';

const SECRET = 'task-events-secret';
let server: Server;
let url = '';
const bodies: Record<string, unknown>[] = [];
let t: TestService;
let work: SureWorkClient;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const ts = String(req.headers['x-work-timestamp']);
    const sig = String(req.headers['x-work-signature']);
    const ok = verifyEventSignature(SECRET, ts, body, sig, Math.floor(Date.now() / 1000));
    if (ok) bodies.push(JSON.parse(body));
    res.writeHead(ok ? 200 : 401).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/work/events`;
  t = await startTestService({ eventsUrl: url, eventsSecret: SECRET, eventsRetryBaseMs: 20 });
  work = new SureWorkClient({
    baseUrl: t.service.baseUrl,
    altUrl: t.service.altUrl,
    apiKey: t.seed.apiKey,
  });
});
afterAll(async () => {
  await t?.stop();
  await new Promise((r) => server.close(r));
});

const ofType = (type: string) => bodies.filter((b) => b.type === type);

describe('task.updated', () => {
  it('tells each changed field with its value before and after, and the new assignees', async () => {
    const { projectId, groups } = t.seed.projects[0];
    const [alice, bob, carol] = t.seed.users;
    const task = await work.createTask({ projectId, name: 'Ship it', taskUsers: [bob.id] });
    const details = await work.getProjectDetails(projectId);
    const done = details.Status?.find((s) => s.Type === 3);
    await work.updateTask(task.taskId, {
      projectId,
      name: 'Ship it now',
      statusId: done?._id,
      dueDate: '2026-12-01',
      priority: 1,
      groupId: groups[0]?.groupId,
      taskUsers: [carol.id],
    });
    const [event] = await waitFor(() =>
      ofType('task.updated').length ? ofType('task.updated') : undefined,
    );
    expect(event).toMatchObject({
      type: 'task.updated',
      workspaceId: t.seed.workspaceId,
      actorId: alice.id,
      actor: { id: alice.id, name: alice.name, email: alice.email },
      changes: {
        taskName: { from: 'Ship it', to: 'Ship it now' },
        status: { from: false, to: true },
        statusName: { from: 'To Do', to: 'Done' },
        dueDate: { from: null, to: '2026-12-01' },
        priority: { from: 3, to: 1 },
        group: { from: null, to: groups[0]?.groupName },
        taskUsers: { added: [carol.id], removed: [bob.id] },
      },
      taskUsers: [{ id: carol.id, name: carol.name, email: carol.email }],
    });
    const told = strictResponses.Task.parse(event!.task);
    expect(told).toMatchObject({ taskId: task.taskId, taskName: 'Ship it now', status: true });
    expect(Object.keys(event!.changes as object)).not.toContain('description');
  });

  it('records nothing for an update that changes nothing', async () => {
    const { projectId } = t.seed.projects[0];
    const task = await work.createTask({ projectId, name: 'Stays' });
    const created = () =>
      bodies.some((b) => (b.task as { taskId?: string }).taskId === task.taskId);
    await waitFor(created);
    await work.updateTask(task.taskId, { projectId, name: 'Stays' });
    await work.postComment(task.taskId, { content: 'after the no-op' });
    await waitFor(() =>
      ofType('task.commented').some(
        (b) => (b.comment as { content: string }).content === 'after the no-op',
      ),
    );
    const mine = bodies.filter((b) => (b.task as { taskId?: string }).taskId === task.taskId);
    expect(mine.map((b) => b.type)).toEqual(['task.created', 'task.commented']);
  });
});

describe('task.commented', () => {
  it('tells the comment, its author and the task', async () => {
    const { projectId } = t.seed.projects[1];
    const task = await work.createTask({ projectId, name: 'Talk about it' });
    const answer = await work.postComment(task.taskId, { content: 'Looks good' });
    const event = await waitFor(() =>
      ofType('task.commented').find((b) => (b.task as { taskId: string }).taskId === task.taskId),
    );
    expect(event).toMatchObject({
      actorId: t.seed.users[0].id,
      comment: {
        commentId: answer.commentId,
        content: 'Looks good',
        createdBy: t.seed.users[0].id,
        createdTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
      task: { taskId: task.taskId, taskName: 'Talk about it', projectId },
    });
  });
});

describe('durability', () => {
  it('keeps undelivered updates and comments across a restart, in order', async () => {
    const { projectId } = t.seed.projects[0];
    const task = await work.createTask({ projectId, name: 'Across restarts' });
    const path = t.dbPath;
    await t.service.close();
    // Written by a run with nobody subscribed.
    const quiet: ServiceHandle = await startService({ dbPath: path, port: 0 });
    const w = new SureWorkClient({
      baseUrl: quiet.baseUrl,
      altUrl: quiet.altUrl,
      apiKey: t.seed.apiKey,
    });
    await w.updateTask(task.taskId, { projectId, name: 'Across restarts 2' });
    await w.postComment(task.taskId, { content: 'still here' });
    await quiet.close();
    const again = await startService({
      dbPath: path,
      port: 0,
      eventsUrl: url,
      eventsSecret: SECRET,
    });
    t.service = again;
    // Delivery is at least once (a send cut by the stop is sent again): one per event id.
    const mine = () => [
      ...new Map(
        bodies
          .filter((b) => (b.task as { taskId?: string }).taskId === task.taskId)
          .map((b) => [b.id, b]),
      ).values(),
    ];
    await waitFor(() => mine().length === 3);
    expect(mine().map((b) => b.type)).toEqual(['task.created', 'task.updated', 'task.commented']);
  });
});
