/**
 * The HTTP front's replay window (src/slack/start/replay-window.ts) behind the guard, on a real
 * HTTP server and real stores of both engines:
 * - a failing store (here: its seen_requests table dropped) never fails a request — it is
 *   handled once, its replay still refused, and the fault logged at error once (issue 24,
 *   finding 3: a full disk made even `/work help` answer 500);
 * - on one instance (SQLite) nothing is written on a request's way in; what was taken in is
 *   written behind it and known again after a restart;
 * - on a shared database (PostgreSQL) two instances offered one request take it in once.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, guardSlackRequests } from '../../../src/slack/start/http-guard.js';
import { ReplayWindow } from '../../../src/slack/start/replay-window.js';
import type { Store } from '../../../src/store/index.js';
import { storeEngines } from '../../support/store-engines.js';

const SECRET = 'guard-test-secret';
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A guarded server whose app answers 'app'; `reached` counts what got through. */
async function guardedServer(replays: ReplayWindow, logs: string[]) {
  const counter = { reached: 0 };
  const log = (m: string) => logs.push(m);
  const server = createServer(
    guardSlackRequests(
      (_req, res) => {
        counter.reached++;
        res.end('app');
      },
      {
        path: '/slack/events',
        signingSecret: SECRET,
        replays,
        limits: DEFAULT_HTTP_LIMITS,
        logger: { info: log, debug: () => {}, error: log },
      },
    ),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  const post = async (body: string, ts = String(Math.floor(Date.now() / 1000))) => {
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
  };
  return { post, counter, url };
}

const window = (store: Store, logs: string[], flushAfterMs?: number) =>
  new ReplayWindow({
    store: store.seenRequests,
    logger: { error: (m) => logs.push(m) },
    flushAfterMs,
  });

const engines = storeEngines();
const sqlite = engines.find((e) => e.name === 'SQLite');
const pg = engines.find((e) => e.name === 'PostgreSQL');

for (const engine of engines) {
  describe(engine.name, () => {
    it('answers every request when its replay store fails: once each, replays refused, one error line', async () => {
      const store = await (await engine.fresh()).open();
      const logs: string[] = [];
      const replays = window(store, logs);
      const { post, counter } = await guardedServer(replays, logs);
      await engine.exec(store, 'DROP TABLE seen_requests');
      const ts = String(Math.floor(Date.now() / 1000));
      expect(await post('command=%2Fwork&text=help', ts)).toEqual({ status: 200, text: 'app' });
      const replay = await post('command=%2Fwork&text=help', ts);
      expect(replay.status).toBe(200);
      expect(replay.text).not.toBe('app');
      expect(await post('command=%2Fwork&text=status')).toEqual({ status: 200, text: 'app' });
      expect(await post('command=%2Fwork&text=list')).toEqual({ status: 200, text: 'app' });
      await replays.flush();
      expect(counter.reached).toBe(3);
      const errors = logs.filter((l) => /replay|recorded/i.test(l) && !l.startsWith('Ignored'));
      expect(errors).toHaveLength(1);
    });
  });
}

describe.runIf(sqlite)('one instance (SQLite)', () => {
  it('writes nothing on a request’s way in, records it behind, and knows it after a restart', async () => {
    const db = await sqlite!.fresh();
    const store = await db.open();
    const logs: string[] = [];
    const replays = window(store, logs, 60_000);
    const first = await guardedServer(replays, logs);
    const ts = String(Math.floor(Date.now() / 1000));
    expect(await first.post('command=%2Fwork&text=help', ts)).toEqual({ status: 200, text: 'app' });
    expect(await store.seenRequests.live()).toEqual([]);
    await replays.flush();
    expect(await store.seenRequests.live()).toHaveLength(1);

    // A restart: a new window on the same file refuses the replay.
    const again = await guardedServer(window(await db.open(), logs), logs);
    const replay = await again.post('command=%2Fwork&text=help', ts);
    expect(replay.status).toBe(200);
    expect(again.counter.reached).toBe(0);
    expect(logs).toEqual(['Ignored a replayed Slack request (same signature within 5 minutes).']);
  });
});

describe.runIf(pg)('several instances (PostgreSQL)', () => {
  it('takes a request offered to two instances in once', async () => {
    const db = await pg!.fresh();
    const logs: string[] = [];
    const a = await guardedServer(window(await db.open(), logs), logs);
    const b = await guardedServer(window(await db.open(), logs), logs);
    const ts = String(Math.floor(Date.now() / 1000));
    const answers = await Promise.all([
      a.post('command=%2Fwork&text=help', ts),
      b.post('command=%2Fwork&text=help', ts),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(a.counter.reached + b.counter.reached).toBe(1);
  });
});

describe.runIf(sqlite)('unsigned requests', () => {
  it('answers Slack’s ssl_check and refuses any other unsigned body, however small', async () => {
    const store = await (await sqlite!.fresh()).open();
    const logs: string[] = [];
    const { url, counter } = await guardedServer(window(store, logs), logs);
    const unsigned = (body: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }).then((r) => r.status);
    expect(await unsigned('ssl_check=1&token=x')).toBe(200);
    // Bolt's receiver no longer checks signatures: this must not reach it.
    expect(await unsigned('command=%2Fwork&text=help')).toBe(401);
    expect(await unsigned('ssl_check=1&payload=%7B%7D'.padEnd(80, 'x'))).toBe(401);
    expect(counter.reached).toBe(0);
  });
});
