/**
 * Kill test: a worker in a child process is killed with SIGKILL in the middle of delivering
 * (the fake Slack answers slowly, so some rows are in 'sending' and some DMs are in flight),
 * then a new worker process starts on the same database. Every row ends up delivered, and
 * no DM was posted twice (counted per outbox id in the fake's recorded chat.postMessage).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { waitFor } from '../../support/harness.js';
import { matchedRow, type TempStore, tempStore } from '../../support/notify-rows.js';
import { dmCalls, dmCountsByOutboxId, scriptDmHistory } from '../../support/notify-slack.js';

const CHILD = fileURLToPath(new URL('../../support/notify-worker-child.ts', import.meta.url));
const ROWS = 24;

let fake: FakeSlack;
let tmp: TempStore;
const children: ChildProcess[] = [];

beforeAll(async () => {
  fake = await startFakeSlack({ teamId: 'T_KILL' });
  scriptDmHistory(fake);
  // Slow answers: a few sends are always in flight.
  fake.script('chat.postMessage', () => ({ delayMs: 250 }));
  tmp = tempStore('worklink-kill-');
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await fake?.close();
  await tmp?.remove();
});

async function startChild(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, tmp.dir, fake.apiUrl], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`worker exited early: ${err}`);
      return child.stdout?.readableLength || undefined;
    },
    { timeoutMs: 20_000 },
  );
  return child;
}

it('loses nothing and sends nothing twice when the worker is killed mid-delivery', async () => {
  const { outbox } = tmp.store;
  const users = ['U_A1', 'U_A2', 'U_A3', 'U_A4', 'U_A5', 'U_A6'];
  const rows = await outbox.enqueue(
    Array.from({ length: ROWS }, (_, i) => matchedRow('T_KILL', users[i % users.length])),
    'slack',
  );

  const first = await startChild();
  // Kill it while DMs are in flight: some already posted, some rows still 'sending'.
  await waitFor(
    () =>
      fake.callsOf('chat.postMessage').length >= 6 &&
      fake.callsOf('chat.postMessage').some((c) => c.doneSeq === undefined),
    { timeoutMs: 20_000, intervalMs: 5 },
  );
  first.kill('SIGKILL');
  await once(first, 'exit');
  const atKill = await outbox.counts();
  expect(atKill.sending).toBeGreaterThan(0);
  expect(atKill.sent).toBeLessThan(ROWS);
  // The dangerous rows: Slack has their DM, the dead worker never marked them sent.
  const posted = new Set(dmCountsByOutboxId(fake).keys());
  const postedNotMarked: typeof rows = [];
  for (const r of rows) {
    if ((await outbox.get(r.id))?.status === 'sending' && posted.has(r.id)) postedNotMarked.push(r);
  }
  expect(postedNotMarked.length).toBeGreaterThan(0);

  const second = await startChild();
  await waitFor(async () => (await outbox.counts()).sent === ROWS, { timeoutMs: 30_000 });
  second.kill('SIGTERM');
  await once(second, 'exit');

  // Every row delivered exactly once.
  const counts = dmCountsByOutboxId(fake);
  expect([...counts.keys()].sort((a, b) => a - b)).toEqual(rows.map((r) => r.id));
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  expect(dmCalls(fake)).toHaveLength(ROWS);
  // The interrupted rows were reconciled against the DM history, not resent blindly.
  expect(fake.callsOf('conversations.history').length).toBeGreaterThanOrEqual(atKill.sending);
  for (const r of postedNotMarked) expect((await outbox.get(r.id))?.attempts).toBe(2);
});
