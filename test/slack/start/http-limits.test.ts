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
const PER_ADDRESS = 4;
const RESERVED = 3;
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
        perAddressConnections: PER_ADDRESS,
        reservedConnections: RESERVED,
        staleMs: 200,
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

/** Opens a connection (from `from`, a loopback address) and sends a request head, no body. */
async function openRequest(
  path: string,
  headers: Record<string, string | number>,
  from = '127.0.0.1',
  complete = true,
): Promise<Raw> {
  const { port } = new URL(h.worklink.url);
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: from });
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
  // A slow-header client stops before the head's end.
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${complete ? '\r\n' : ''}`);
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

const closedSoon = (r: Raw) => within(r.closed, 1_000).then((v) => v === undefined);

it('closes connections past the cap when none is stale to make room', async () => {
  const open: Raw[] = [];
  try {
    // Heads complete, bodies never sent: busy, not idle. Three addresses within their share.
    // (`expect: 100-continue`: the server's 100 says it has read the head.)
    const busy = (from: string) =>
      openRequest('/slack/events', { ...slackHeaders(1_000, true), expect: '100-continue' }, from);
    for (let i = 0; i < MAX_CONNECTIONS - RESERVED; i++) {
      const raw = await busy(`127.0.0.${2 + (i % 3)}`);
      expect(await raw.status).toBe(100);
      open.push(raw);
    }
    // Newcomers take the place of stale unsigned connections (the harness's own, if any),
    // never of busy ones; at the cap with none stale, they are closed.
    const extras: Raw[] = [];
    for (let i = 0; i < 4; i++) {
      const raw = await busy('127.0.0.5');
      extras.push(raw);
      if ((await within(raw.status, 1_000)) !== 100) break;
    }
    expect(await closedSoon(extras.at(-1)!)).toBe(true);
    expect(open.every((r) => !r.socket.destroyed)).toBe(true);
    for (const r of extras) r.socket.destroy();
  } finally {
    for (const r of open) r.socket.destroy();
  }
});

it('keeps signed requests answered while one address floods the server with slow headers', async () => {
  const flood: Raw[] = [];
  let flooding = true;
  // One client holding slow-header sockets, reconnecting as they are closed (issue 24, #4).
  const attack = async (from: string) => {
    while (flooding) {
      const raw = await openRequest('/slack/events', { 'x-partial': 1 }, from, false);
      flood.push(raw);
      if (flood.filter((r) => !r.socket.destroyed).length > 40) {
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const attackers = [attack('127.0.0.6'), attack('127.0.0.7'), attack('127.0.0.8')];
  try {
    // The flood's connections go stale (no request head for staleMs).
    await new Promise((r) => setTimeout(r, 600));
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push((await h.slack.slashCommand('help')).status);
    expect(answers).toEqual(Array(10).fill(200));
  } finally {
    flooding = false;
    await Promise.all(attackers);
    for (const r of flood) r.socket.destroy();
  }
});

it('closes the newcomers of an address that sits on stale connections', async () => {
  const held: Raw[] = [];
  try {
    for (let i = 0; i < PER_ADDRESS + 1; i++) {
      held.push(await openRequest('/slack/events', { 'x-partial': 1 }, '127.0.0.9', false));
    }
    // No request head for staleMs: they are stale, and the address has its share of them.
    await new Promise((r) => setTimeout(r, 400));
    const more = await openRequest('/slack/events', { 'x-partial': 1 }, '127.0.0.9', false);
    expect(await closedSoon(more)).toBe(true);
    // Another address is not affected.
    expect((await h.slack.slashCommand('help')).status).toBe(200);
  } finally {
    for (const r of held) r.socket.destroy();
  }
});
