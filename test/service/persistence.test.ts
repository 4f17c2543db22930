/**
 * Durability: data and undelivered events survive a restart on the same file; events are
 * delivered in order as signed POSTs, retried after failures, and marked delivered only
 * after a 2xx. The subscriber is a local node:http receiver.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db.js';
import { type ServiceHandle, seedDemoWorkspace, startService } from '../../src/service/index.js';
import { strictResponses } from '../../src/workapi/contract.js';
import { signEvent, verifyEventSignature } from '../../src/workapi/event-signature.js';
import { makeTempDir, raw, waitFor } from './support.js';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A subscriber whose answer to the n-th request (1-based) is scripted. */
class Receiver {
  readonly deliveries: Delivery[] = [];
  answer: (n: number, body: string) => number = () => 200;
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const status = this.answer(this.deliveries.length + 1, body);
      this.deliveries.push({ headers: req.headers, body, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/work/events`;
    return this;
  }

  /** Bodies answered with a 2xx, in the order they were accepted. */
  accepted(): Record<string, unknown>[] {
    return this.deliveries
      .filter((d) => d.status >= 200 && d.status < 300)
      .map((d) => JSON.parse(d.body));
  }

  close(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

const SECRET = 'test-events-secret';
let temp: ReturnType<typeof makeTempDir>;
const open: ServiceHandle[] = [];
const receivers: Receiver[] = [];

beforeAll(() => {
  temp = makeTempDir();
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(() => temp.remove());

let files = 0;
const newDbPath = () => join(temp.dir, `service-${++files}.db`);

async function start(dbPath: string, extra: Partial<Parameters<typeof startService>[0]> = {}) {
  const service = await startService({ dbPath, port: 0, eventsRetryBaseMs: 20, ...extra });
  open.push(service);
  return service;
}

async function stop(service: ServiceHandle) {
  open.splice(open.indexOf(service), 1);
  await service.close();
}

async function receiver(answer?: Receiver['answer']) {
  const r = await new Receiver().start();
  if (answer) r.answer = answer;
  receivers.push(r);
  return r;
}

async function createTask(service: ServiceHandle, apiKey: string, body: Record<string, unknown>) {
  const answer = await raw(`${service.baseUrl}/task`, { apiKey, body });
  expect(answer.status).toBe(201);
  return strictResponses.Task.parse(answer.json);
}

const undelivered = (s: ServiceHandle) =>
  (
    s.db.prepare('SELECT COUNT(*) AS n FROM events WHERE delivered_at IS NULL').get() as {
      n: number;
    }
  ).n;

describe('restarts', () => {
  it('keeps projects, tasks, comments and keys across a restart on the same file', async () => {
    const dbPath = newDbPath();
    const seed = seedDemoWorkspace(dbPath);
    const first = await start(dbPath);
    const projectId = seed.projects[0].projectId;
    const task = await createTask(first, seed.apiKey, {
      projectId,
      name: 'Survives',
      taskUsers: [seed.users[1].id],
      dueDate: '2026-11-25',
    });
    await raw(`${first.baseUrl}/task/${task.taskId}/comments`, {
      apiKey: seed.apiKey,
      body: { content: 'still here?' },
    });
    const project = await raw(`${first.baseUrl}/project`, {
      apiKey: seed.apiKey,
      body: { projectName: 'Also survives' },
    });
    await stop(first);

    const second = await start(dbPath);
    const again = await raw(`${second.baseUrl}/task/${task.taskId}`, { apiKey: seed.apiKey });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(task);
    const projectAgain = await raw(
      `${second.baseUrl}/project/${(project.json as { projectId: string }).projectId}`,
      { apiKey: seed.apiKey },
    );
    expect(projectAgain.json).toEqual(project.json);
    const updated = await raw(`${second.altUrl}/task/updateTask/${task.taskId}`, {
      apiKey: seed.apiKey,
      method: 'PUT',
      body: { projectId },
    });
    const comments = strictResponses.UpdatedTask.parse(updated.json).Comments ?? [];
    expect(comments.map((c) => c.Comment)).toEqual(['still here?']);
    // TaskNumber carries on from where it was.
    const next = await createTask(second, seed.apiKey, { projectId, name: 'Next' });
    const nextUpdated = await raw(`${second.altUrl}/task/updateTask/${next.taskId}`, {
      apiKey: seed.apiKey,
      method: 'PUT',
      body: { projectId },
    });
    expect(strictResponses.UpdatedTask.parse(nextUpdated.json).TaskNumber).toBe(6);
  });
});

describe('several connections', () => {
  it('serves a task changed by another connection, not a stale copy', async () => {
    const dbPath = newDbPath();
    const seed = seedDemoWorkspace(dbPath);
    const service = await start(dbPath);
    const task = await createTask(service, seed.apiKey, {
      projectId: seed.projects[0].projectId,
      name: 'Before',
    });
    const url = `${service.baseUrl}/task/${task.taskId}`;
    expect((await raw(url, { apiKey: seed.apiKey })).json).toMatchObject({ taskName: 'Before' });
    // Another process (or connection) writes to the same file.
    const other = openDatabase(dbPath);
    try {
      other.prepare('UPDATE tasks SET name = ? WHERE id = ?').run('After', task.taskId);
    } finally {
      other.close();
    }
    expect((await raw(url, { apiKey: seed.apiKey })).json).toMatchObject({ taskName: 'After' });
  });
});

describe('events', () => {
  it('records no events for seeded tasks', async () => {
    const dbPath = newDbPath();
    seedDemoWorkspace(dbPath);
    const service = await start(dbPath);
    expect(undelivered(service)).toBe(0);
  });

  it('delivers events left undelivered by an earlier run, signed, after failures', async () => {
    const dbPath = newDbPath();
    const seed = seedDemoWorkspace(dbPath);
    const projectId = seed.projects[0].projectId;
    const [, bob, carol] = seed.users;

    // Run 1: no subscriber, so the events wait in the database.
    const first = await start(dbPath);
    const t1 = await createTask(first, seed.apiKey, {
      projectId,
      name: 'One',
      taskUsers: [bob.id, carol.id],
    });
    const t2 = await createTask(first, seed.apiKey, { projectId, name: 'Two' });
    expect(undelivered(first)).toBe(2);
    await stop(first);

    // Run 2: the subscriber fails twice, then accepts.
    const r = await receiver((n) => (n <= 2 ? 500 : 200));
    const second = await start(dbPath, { eventsUrl: r.url, eventsSecret: SECRET });
    await waitFor(() => r.accepted().length === 2, { what: 'two accepted events' });
    await waitFor(() => undelivered(second) === 0, { what: 'events marked delivered' });

    expect(r.deliveries.map((d) => d.status)).toEqual([500, 500, 200, 200]);
    // The failed attempts were of the first event: order holds across retries.
    expect(new Set(r.deliveries.slice(0, 3).map((d) => d.body)).size).toBe(1);
    const now = Math.floor(Date.now() / 1000);
    for (const d of r.deliveries) {
      const timestamp = d.headers['x-work-timestamp'] as string;
      const signature = d.headers['x-work-signature'] as string;
      expect(d.headers['content-type']).toBe('application/json');
      expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(verifyEventSignature(SECRET, timestamp, d.body, signature, now)).toBe(true);
      expect(verifyEventSignature('wrong-secret', timestamp, d.body, signature, now)).toBe(false);
    }

    const [e1, e2] = r.accepted();
    expect(e1).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: 'task.created',
      createdAt: expect.any(String),
      workspaceId: seed.workspaceId,
      actorId: seed.users[0].id,
      task: t1,
      // Who they are (the seed also hands out each user's own key, which events never carry).
      taskUsers: [bob, carol].map(({ id, name, email }) => ({ id, name, email })),
    });
    strictResponses.Task.parse(e1.task);
    expect(e2).toMatchObject({ type: 'task.created', task: t2, taskUsers: [] });
  });

  it('delivers in creation order while some attempts fail', async () => {
    const dbPath = newDbPath();
    const seed = seedDemoWorkspace(dbPath);
    // Every third attempt fails.
    const r = await receiver((n) => (n % 3 === 0 ? 500 : 204));
    const service = await start(dbPath, { eventsUrl: r.url, eventsSecret: SECRET });
    const names = Array.from({ length: 8 }, (_, i) => `Task ${i + 1}`);
    for (const name of names) {
      await createTask(service, seed.apiKey, { projectId: seed.projects[1].projectId, name });
    }
    await waitFor(() => r.accepted().length === names.length, { what: 'all events' });
    const accepted = r.accepted().map((e) => (e.task as { taskName: string }).taskName);
    expect(accepted).toEqual(names);
    expect(r.deliveries.some((d) => d.status === 500)).toBe(true);
    await waitFor(() => undelivered(service) === 0, { what: 'events marked delivered' });
  });

  it('sets and replaces the subscriber at runtime', async () => {
    const dbPath = newDbPath();
    const seed = seedDemoWorkspace(dbPath);
    const projectId = seed.projects[0].projectId;
    const service = await start(dbPath);
    await createTask(service, seed.apiKey, { projectId, name: 'Before anyone listened' });

    const a = await receiver();
    service.setEventsSubscriber({ url: a.url, secret: 'secret-a' });
    await waitFor(() => a.accepted().length === 1, { what: 'delivery to the first subscriber' });

    const b = await receiver();
    service.setEventsSubscriber({ url: b.url, secret: 'secret-b' });
    await createTask(service, seed.apiKey, { projectId, name: 'After the switch' });
    await waitFor(() => b.accepted().length === 1, { what: 'delivery to the second subscriber' });
    expect(a.deliveries).toHaveLength(1);
    const d = b.deliveries[0];
    expect(
      verifyEventSignature(
        'secret-b',
        d.headers['x-work-timestamp'] as string,
        d.body,
        d.headers['x-work-signature'] as string,
      ),
    ).toBe(true);
    expect((JSON.parse(d.body).task as { taskName: string }).taskName).toBe('After the switch');
  });

  it('keeps retrying a subscriber that is down, and catches up when it is back', async () => {
    const dbPath = newDbPath();
    const seed = seedDemoWorkspace(dbPath);
    // A port with nothing listening: take one, then free it.
    const gone = await receiver();
    const url = gone.url;
    await gone.close();
    receivers.splice(receivers.indexOf(gone), 1);
    const service = await start(dbPath, { eventsUrl: url, eventsSecret: SECRET });
    await createTask(service, seed.apiKey, {
      projectId: seed.projects[0].projectId,
      name: 'Waits',
    });
    await waitFor(
      () =>
        (service.db.prepare('SELECT attempts FROM events').get() as { attempts: number })
          .attempts >= 2,
      { what: 'failed attempts' },
    );
    expect(undelivered(service)).toBe(1);
    const back = await receiver();
    service.setEventsSubscriber({ url: back.url, secret: SECRET });
    await waitFor(() => back.accepted().length === 1, { what: 'delivery once back' });
    await waitFor(() => undelivered(service) === 0, { what: 'marked delivered' });
  });
});

describe('event signatures', () => {
  const body = '{"id":"1","type":"task.created"}';
  const now = 1_800_000_000;

  it('accepts its own signature and refuses tampering, staleness and junk', () => {
    const sig = signEvent(SECRET, now, body);
    expect(verifyEventSignature(SECRET, String(now), body, sig, now)).toBe(true);
    expect(verifyEventSignature(SECRET, now, body, sig, now + 300)).toBe(true);
    expect(verifyEventSignature(SECRET, now, body, sig, now + 301)).toBe(false);
    expect(verifyEventSignature(SECRET, now, body, sig, now - 301)).toBe(false);
    expect(verifyEventSignature(SECRET, now, `${body} `, sig, now)).toBe(false);
    expect(verifyEventSignature(SECRET, now + 1, body, sig, now)).toBe(false);
    expect(verifyEventSignature('other', now, body, sig, now)).toBe(false);
    expect(verifyEventSignature(SECRET, now, body, sig.slice(0, -1), now)).toBe(false);
    expect(verifyEventSignature(SECRET, undefined, body, sig, now)).toBe(false);
    expect(verifyEventSignature(SECRET, now, body, undefined, now)).toBe(false);
    expect(verifyEventSignature(SECRET, 'abc', body, sig, now)).toBe(false);
    expect(verifyEventSignature(SECRET, `${now}.5`, body, sig, now)).toBe(false);
  });
});
