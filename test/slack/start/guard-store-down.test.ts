/**
 * The replay check asks the store (a Promise) before Bolt sees a request. When the store
 * cannot answer (here: a real SQLite store, closed), the request is refused with a 500 that
 * Slack retries — never handed to the app unchecked, never an unhandled rejection — and the
 * server goes on answering.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, guardSlackRequests } from '../../../src/slack/start/http-guard.js';
import { openStore, type Store } from '../../../src/store/index.js';

const SECRET = 'guard-test-secret';
const dir = mkdtempSync(join(tmpdir(), 'worklink-guard-'));
const logs: string[] = [];
let reached = 0;
let store: Store;
let server: Server;
let url: string;

beforeAll(async () => {
  store = openStore(dir);
  const guarded = guardSlackRequests(
    (_req, res) => {
      reached++;
      res.end('app');
    },
    {
      path: '/slack/events',
      signingSecret: SECRET,
      seen: store.seenRequests,
      limits: DEFAULT_HTTP_LIMITS,
      logger: { info: (m: string) => logs.push(m), debug: () => {} },
    },
  );
  server = createServer(guarded);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signedPost(body: string, ts = String(Math.floor(Date.now() / 1000))) {
  const sig = `v0=${createHmac('sha256', SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': ts,
      'x-slack-signature': sig,
    },
    body,
  });
  return { status: res.status, text: await res.text() };
}

it('passes a signed request on once; its identical replay is answered and not passed on', async () => {
  const ts = String(Math.floor(Date.now() / 1000));
  expect(await signedPost('command=%2Fwork&text=one', ts)).toEqual({ status: 200, text: 'app' });
  const replay = await signedPost('command=%2Fwork&text=one', ts);
  expect(replay.status).toBe(200);
  expect(replay.text).not.toBe('app');
  expect(reached).toBe(1);
});

it('answers 500 when the store cannot be asked, without handing the request on', async () => {
  await store.close();
  const res = await signedPost('command=%2Fwork&text=three');
  expect(res.status).toBe(500);
  expect(res.text).toBe('Try again later.\n');
  expect(reached).toBe(1);
  expect(logs.some((l) => l.startsWith('A Slack request could not be checked for replays'))).toBe(
    true,
  );
});
