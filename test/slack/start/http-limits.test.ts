/**
 * Unauthenticated clients cannot pin the app's memory or its sockets: an unsigned upload is
 * refused from its headers before any of its body is read, an oversized one likewise, a body
 * dripping in is cut off by the request timeout, and connections past the cap are closed.
 * Raw sockets, because fetch cannot send half a request.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.js';

const MAX_CONNECTIONS = 12;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    configure: (config) => ({
      ...config,
      workEventsSecret: 'events-secret-for-this-test',
      httpLimits: {
        headersTimeoutMs: 1_500,
        requestTimeoutMs: 1_500,
        maxConnections: MAX_CONNECTIONS,
      },
    }),
  });
});
afterAll(() => h?.stop());

interface Raw {
  socket: Socket;
  /** The status code of the first answer, once it came. */
  status: Promise<number>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

/** Opens a connection and sends a request head (no body). */
async function openRequest(path: string, headers: Record<string, string | number>): Promise<Raw> {
  const { port } = new URL(h.worklink.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let data = '';
  const status = new Promise<number>((resolve) => {
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) resolve(Number(m[1]));
    });
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  const head = Object.entries({ host: `127.0.0.1:${port}`, ...headers })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`);
  return { socket, status, closed };
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), ms))]);

const slackHeaders = (length: number, signed: boolean) => ({
  'content-type': 'application/x-www-form-urlencoded',
  'content-length': length,
  ...(signed
    ? {
        'x-slack-request-timestamp': Math.floor(Date.now() / 1000),
        'x-slack-signature': `v0=${'0'.repeat(64)}`,
      }
    : {}),
});

describe('/slack/events', () => {
  it('refuses an unsigned upload from its headers, without waiting for its body', async () => {
    const raw = await openRequest('/slack/events', slackHeaders(512 * 1024, false));
    expect(await within(raw.status, 2_000)).toBe(401);
    await raw.closed;
  });

  it('refuses a body announced over the limit before reading it', async () => {
    const raw = await openRequest('/slack/events', slackHeaders(3 * 1024 * 1024, true));
    expect(await within(raw.status, 2_000)).toBe(413);
    await raw.closed;
  });

  it('cuts off a body that drips in a byte at a time', async () => {
    const raw = await openRequest('/slack/events', slackHeaders(1_000, true));
    let sent = 0;
    const drip = setInterval(() => {
      if (!raw.socket.destroyed) raw.socket.write('a');
      sent++;
    }, 100);
    try {
      expect(await within(raw.closed, 8_000)).toBeUndefined();
      expect(sent).toBeLessThan(1_000);
    } finally {
      clearInterval(drip);
      raw.socket.destroy();
    }
  }, 15_000);
});

describe('/work/events', () => {
  it('refuses an unsigned upload from its headers, without waiting for its body', async () => {
    const raw = await openRequest('/work/events', {
      'content-type': 'application/json',
      'content-length': 512 * 1024,
    });
    expect(await within(raw.status, 2_000)).toBe(401);
    await raw.closed;
  });
});

it(`closes connections past the cap of ${MAX_CONNECTIONS}`, async () => {
  const open: Raw[] = [];
  try {
    for (let i = 0; i < MAX_CONNECTIONS + 2; i++) {
      open.push(await openRequest('/slack/events', slackHeaders(1_000, true)));
    }
    const [extra] = await Promise.all([
      within(open.at(-1)!.closed, 1_000),
      new Promise((r) => setTimeout(r, 200)),
    ]);
    expect(extra).toBeUndefined();
    expect(open.slice(0, MAX_CONNECTIONS - 2).every((r) => !r.socket.destroyed)).toBe(true);
  } finally {
    for (const r of open) r.socket.destroy();
  }
});
