/**
 * A modal create the service does not confirm in time: the modal says one thing ("Creating
 * the task…"), then Worklink finds out from the project's task list and follows up with the
 * outcome — created (with its card) or not created (with what was typed, by DM) — instead of
 * "not created … it may have been created".
 */
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { WorkClientCache } from '../../../src/slack/context/work-clients.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { answeredView, linkChannel, shown, stateFor, type ViewJson, viewOf } from './helpers.js';

let h: Harness;
let proxy: { url: string; close(): Promise<void> };
/** What the proxy does with create-task requests. */
let createMode: 'late' | 'lost' = 'late';
let website: string;

beforeAll(async () => {
  // Looks for the unconfirmed create 100 ms apart instead of 2 s: the same looks, sooner.
  h = await startHarness({
    connect: true,
    configure: (c) => ({ ...c, waits: { ...c.waits, unconfirmedLookMs: 100 } }),
  });
  website = h.seed.projects[0]!.projectId;
  proxy = await createProxy(h.service.url);
  // Worklink talks to the service through the proxy, and gives up on an answer after 1 s.
  h.worklink.deps.workClients = new WorkClientCache(
    { baseUrl: `${proxy.url}/v1.0`, altUrl: `${proxy.url}/api/v1` },
    { timeoutMs: 1_000 },
  );
});
afterAll(async () => {
  await proxy?.close();
  await h?.stop();
});
beforeEach(async () => {
  h.fake.reset();
  await linkChannel(h, 0);
});

/** Forwards to the service; a create is either answered 2.5 s late, or lost on the way. */
async function createProxy(target: string) {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const isCreate = req.method === 'POST' && req.url === '/v1.0/task';
      if (isCreate && createMode === 'lost') return; // never forwarded, never answered
      const upstream = request(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () =>
            setTimeout(
              () => {
                res.writeHead(answer.statusCode ?? 502, answer.headers);
                res.end(Buffer.concat(body));
              },
              isCreate ? 2_500 : 0,
            ),
          );
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function submitNewTask(name: string) {
  const command = await h.slack.slashCommand('new');
  const open = await h.fake.waitForCall(
    'views.open',
    (c) => c.body.trigger_id === command.triggerId,
  );
  const id = (await answeredView(h, open)).id;
  const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
  const view = { ...viewOf(update), id } as ViewJson;
  const res = await h.slack.viewSubmission({
    callbackId: view.callback_id!,
    id: view.id,
    privateMetadata: view.private_metadata,
    blocks: view.blocks,
    values: stateFor(view, { task_name_input: name }),
  });
  return { command, view, res };
}

const tasksNamed = async (name: string) =>
  (await h.work.listTasks({ projectId: website })).filter((t) => t.taskName === name);

it('finds the task the service made but did not confirm, and reports it created', async () => {
  createMode = 'late';
  const { command, view, res } = await submitNewTask('Slow to confirm');
  expect(res.json?.response_action).toBe('update');
  expect(shown(res.json?.view)).toContain('Creating the task…');
  const done = await h.fake.waitForCall(
    'views.update',
    (c) => c.body.view_id === view.id && shown(c.body.view).includes('Created task'),
    10_000,
  );
  expect(shown(done.body.view)).toContain('Created task *Slow to confirm*');
  // The confirmation is the task's live card, in the author's DM with Worklink.
  await h.fake.waitForCall(
    'chat.postMessage',
    (c) =>
      c.body.channel === h.users.alice.id && /created \*#\d+ Slow to confirm\*/.test(shown(c.body)),
    10_000,
  );
  expect(h.repliesTo(command)).toEqual([]);
  expect(await tasksNamed('Slow to confirm')).toHaveLength(1);
  // Nobody was told it was not created.
  expect(
    h.fake.callsOf('chat.postMessage').some((c) => shown(c.body).includes('not created')),
  ).toBe(false);
}, 20_000);

it('says plainly that a create the service never got was not created, and DMs what was typed', async () => {
  createMode = 'lost';
  const { view } = await submitNewTask('Lost in transit');
  const dm = await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel === h.users.alice.id && shown(c.body).includes('Lost in transit'),
    15_000,
  );
  const text = String(dm.body.text);
  expect(text).toContain(
    'Your task was not created. The work-management service did not confirm *Lost in transit*, and the project has no such task.',
  );
  expect(text).not.toContain('may have been created');
  expect(text).toContain('*Name:* Lost in transit');
  await h.fake.waitForCall(
    'views.update',
    (c) => c.body.view_id === view.id && shown(c.body.view).includes('Your task was not created.'),
  );
  expect(await tasksNamed('Lost in transit')).toHaveLength(0);
}, 25_000);
