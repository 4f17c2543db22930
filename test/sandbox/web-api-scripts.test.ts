// The sandbox Web API's interception layer over real HTTP: scripts by call count, custom error
// bodies, empty HTTP faults, slow answers (the message is stored before the late answer), and
// observers that see each call arrive and be answered.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../src/sandbox/server.js';
import type { ApiResult, CallEvent } from '../../src/sandbox/web-api-scripts.js';
import { BOT_TOKEN, startTestSandbox } from './helpers.js';

const GENERAL = 'C0SBGENERAL';
let sandbox: SandboxServer;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});
afterEach(() => {
  for (const m of ['chat.postMessage', 'users.info', 'auth.test'])
    sandbox.webApi.scripts.set(m, undefined);
});

async function post(method: string, args: Record<string, unknown>, token = BOT_TOKEN) {
  const res = await fetch(`${sandbox.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: text ? JSON.parse(text) : undefined,
  };
}

describe('scripts', () => {
  it('answer by call count, then let calls through to the real answer', async () => {
    sandbox.webApi.scripts.set('chat.postMessage', (_args, n) =>
      n === 1
        ? {
            status: 429,
            headers: { 'retry-after': '3' },
            body: { ok: false, error: 'ratelimited' },
          }
        : undefined,
    );
    const first = await post('chat.postMessage', { channel: GENERAL, text: 'one' });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect(first.json).toEqual({ ok: false, error: 'ratelimited' });
    const second = await post('chat.postMessage', { channel: GENERAL, text: 'two' });
    expect(second.json).toMatchObject({ ok: true, channel: GENERAL });
    const texts = (sandbox.state.messages.get(GENERAL) ?? []).map((m) => m.text);
    expect(texts).toContain('two');
    expect(texts).not.toContain('one');
  });

  it('send custom error bodies and empty HTTP faults', async () => {
    sandbox.webApi.scripts.set('users.info', () => ({
      ok: false,
      error: 'user_not_visible',
      detail: 'x',
    }));
    expect((await post('users.info', { user: 'U0SBALICE' })).json).toEqual({
      ok: false,
      error: 'user_not_visible',
      detail: 'x',
    });
    sandbox.webApi.scripts.set('users.info', () => ({ status: 503 }));
    const empty = await post('users.info', { user: 'U0SBALICE' });
    expect(empty.status).toBe(503);
    expect(empty.text).toBe('');
  });

  it('delay the answer of a call that Slack already stored', async () => {
    sandbox.webApi.scripts.set('chat.postMessage', () => ({ delayMs: 300 }));
    const started = Date.now();
    const pending = post('chat.postMessage', { channel: GENERAL, text: 'slow one' });
    await new Promise((r) => setTimeout(r, 100));
    // Stored as it was accepted, before the (late) answer.
    expect((sandbox.state.messages.get(GENERAL) ?? []).map((m) => m.text)).toContain('slow one');
    const res = await pending;
    expect(res.json).toMatchObject({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('delay then fault: nothing is stored', async () => {
    sandbox.webApi.scripts.set('chat.postMessage', () => ({
      delayMs: 50,
      // biome-ignore lint/suspicious/noThenProperty: ScriptReply names it `then` (not a function).
      then: { status: 500 },
    }));
    const res = await post('chat.postMessage', { channel: GENERAL, text: 'lost one' });
    expect(res.status).toBe(500);
    expect((sandbox.state.messages.get(GENERAL) ?? []).map((m) => m.text)).not.toContain(
      'lost one',
    );
  });

  it('never run for a refused token: Slack checks the token first', async () => {
    let ran = 0;
    sandbox.webApi.scripts.set('auth.test', () => {
      ran++;
      return { ok: true };
    });
    expect((await post('auth.test', {}, 'xoxb-wrong')).json).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    expect(ran).toBe(0);
  });
});

describe('observers', () => {
  it('hear each call arrive and be answered, in order', async () => {
    const seen: string[] = [];
    const stop = sandbox.webApi.scripts.observe({
      received: (c: CallEvent) => seen.push(`in ${c.method} ${c.token === BOT_TOKEN}`),
      answered: (c: CallEvent, r: ApiResult) => seen.push(`out ${c.method} ${r.body.ok}`),
    });
    await post('users.info', { user: 'U0SBALICE' });
    await post('users.info', { user: 'U0NOPE' });
    stop();
    await post('users.info', { user: 'U0SBALICE' });
    expect(seen).toEqual([
      'in users.info true',
      'out users.info true',
      'in users.info true',
      'out users.info false',
    ]);
  });
});
