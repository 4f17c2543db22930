/**
 * The service's answers are read up to WORK_MAX_RESPONSE_BYTES and no further: a huge answer
 * (declared or streamed) fails the call with a clear message and the connection is closed,
 * instead of the app buffering it all.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWorkError } from '../../src/slack/ui/error-text.js';
import { WorkApiError, WorkClient } from '../../src/workapi/client.js';

const MiB = 1024 * 1024;
let server: Server;
let origin: string;
let requests = 0;
/** How the server answers; the default streams a JSON array of 64 MiB in 64 KiB chunks. */
let answer: (res: ServerResponse) => void;
/** Bytes the server managed to hand to the socket before it was closed. */
let written = 0;
let closedEarly: Promise<boolean>;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    closedEarly = new Promise((resolve) => {
      res.on('close', () => resolve(!res.writableFinished));
    });
    answer(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function stream(res: ServerResponse, total: number) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  written = 0;
  const pump = () => {
    while (written < total) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.write('[');
  pump();
}

const client = () =>
  new WorkClient({
    baseUrl: `${origin}/v1.0`,
    altUrl: `${origin}/api/v1`,
    apiKey: 'k',
    maxResponseBytes: MiB,
    retry: { attempts: 3, baseDelayMs: 5 },
  });

it('stops reading a streamed answer past the limit, closes it, and does not ask again', async () => {
  answer = (res) => stream(res, 64 * MiB);
  requests = 0;
  const error = await client()
    .listTasks({ projectId: 'p'.repeat(24) })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WorkApiError);
  expect((error as WorkApiError).message).toBe(
    "The service's answer was larger than 1 MiB (WORK_MAX_RESPONSE_BYTES), so Worklink stopped reading it.",
  );
  expect(await closedEarly).toBe(true);
  expect(written).toBeLessThan(32 * MiB);
  expect(requests).toBe(1);
  expect(describeWorkError(error, { action: 'list the tasks' })).toBe(
    "Could not list the tasks: the service's answer was larger than 1 MiB (WORK_MAX_RESPONSE_BYTES), so Worklink stopped reading it. An admin can raise WORK_MAX_RESPONSE_BYTES.",
  );
});

it('refuses an answer whose Content-Length is over the limit before reading it', async () => {
  answer = (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 300 * MiB });
    res.write('[');
  };
  const error = await client()
    .listUsers()
    .catch((e: unknown) => e);
  expect((error as WorkApiError).kind).toBe('too_large');
  expect(await closedEarly).toBe(true);
});

it('reads answers under the limit as before', async () => {
  answer = (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify([]));
  };
  expect(await client().listUsers()).toEqual([]);
});
