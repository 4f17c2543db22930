/**
 * The outbox worker against the fake Slack Web API, scripted to fail the ways Slack does:
 * 429 + Retry-After (that team waits, others go on), 500, answers slower than the timeout,
 * permanent errors, and rows left 'sending' by a dead worker (reconciled, not resent).
 */
import { WebClient } from '@slack/web-api';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotifyWorker } from '../../../src/slack/notify/worker.js';
import type { OutboxStore } from '../../../src/store/index.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { waitFor } from '../../support/harness.js';
import { matchedRow, type TempStore, tempStore, testWorker } from '../../support/notify-rows.js';
import {
  dmAttempts,
  dmCalls,
  dmCountsByOutboxId,
  imOf,
  outboxIdOf,
  scriptDmHistory,
} from '../../support/notify-slack.js';

let fake: FakeSlack;
let tmp: TempStore;
let outbox: OutboxStore;
let worker: NotifyWorker | undefined;

beforeAll(async () => {
  fake = await startFakeSlack({ teamId: 'T_A' });
});
afterAll(() => fake?.close());
beforeEach(() => {
  tmp = tempStore();
  outbox = tmp.store.outbox;
  fake.reset();
  scriptDmHistory(fake);
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  for (const m of ['chat.postMessage', 'conversations.history', 'conversations.open']) {
    fake.script(m, undefined);
  }
  await tmp.remove();
});

const allDone = async () => {
  const c = await outbox.counts();
  return c.pending === 0 && c.sending === 0;
};
/** The rows' statuses now, in order. */
const statuses = async (rows: readonly { id: number }[]) =>
  Promise.all(rows.map(async (r) => (await outbox.get(r.id))?.status));

describe('delivery', () => {
  it('DMs each row once, to the Slack user, with the buttons and the marker', async () => {
    const rows = await outbox.enqueue(
      [matchedRow('T_A', 'U_BOB'), matchedRow('T_A', 'U_CAROL'), matchedRow('T_A', 'U_DAN')],
      'slack',
    );
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.counts()).sent === 3);
    const calls = dmCalls(fake);
    expect(calls.map((c) => c.body.channel).sort()).toEqual(['U_BOB', 'U_CAROL', 'U_DAN']);
    const bob = calls.find((c) => c.body.channel === 'U_BOB')!;
    expect(bob.token).toBe('xoxb-T_A');
    expect(bob.body.text).toContain('Alice Adams assigned you *Task');
    expect(bob.body.text).toContain('in *Website*');
    expect(bob.body.metadata).toMatchObject({
      event_type: 'worklink_task_assigned',
      event_payload: { outbox_id: rows[0].id, marker: rows[0].marker },
    });
    const sent = (await outbox.get(rows[0].id))!;
    expect(sent.status).toBe('sent');
    expect(sent.messageTs).toBeTruthy();
    expect(sent.attempts).toBe(1);
    expect([...dmCountsByOutboxId(fake).values()]).toEqual([1, 1, 1]);
  });

  it('waits out a 429 for Retry-After, then delivers', async () => {
    fake.script('chat.postMessage', (_b, n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : undefined,
    );
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_BOB')], 'slack');
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'sent', { timeoutMs: 10_000 });
    const [first, second] = dmAttempts(fake);
    // The second try came no sooner than Slack asked.
    expect(second.at - first.at).toBeGreaterThanOrEqual(1_000);
    expect(dmCalls(fake)).toHaveLength(1);
    expect(worker.stats.rateLimited).toBe(1);
    // A 429 is not held against the row.
    expect((await outbox.get(row.id))?.attempts).toBe(1);
  });

  it('pauses only the team whose limit was hit; other teams go on', async () => {
    // Team A's first two DMs, into two channels, are refused with a long Retry-After: that
    // is the team's limit (one channel alone would be that channel's). Team B is not limited.
    fake.script('chat.postMessage', (body) =>
      String(body.channel).startsWith('U_A') && dmAttempts(fake).length <= 2
        ? { status: 429, headers: { 'retry-after': '3' } }
        : undefined,
    );
    const a = await outbox.enqueue([matchedRow('T_A', 'U_A1'), matchedRow('T_A', 'U_A3')], 'slack');
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(() => worker?.teamPausedUntil('T_A'));
    // Queued while A is paused: A's third row waits, B's rows are delivered.
    const more = await outbox.enqueue(
      [matchedRow('T_A', 'U_A2'), matchedRow('T_B', 'U_B1'), matchedRow('T_B', 'U_B2')],
      'slack',
    );
    worker.wake();
    await waitFor(async () => (await statuses(more.slice(1))).every((s) => s === 'sent'));
    expect(await worker.teamPausedUntil('T_A')).toBeDefined();
    expect(dmAttempts(fake).filter((c) => String(c.body.channel).startsWith('U_A'))).toHaveLength(
      2,
    );
    expect(await statuses(a)).toEqual(['pending', 'pending']);
    // After the pause, A's rows go too.
    await waitFor(() => allDone(), { timeoutMs: 10_000 });
    expect((await outbox.counts()).sent).toBe(5);
    expect([...dmCountsByOutboxId(fake).values()].every((n) => n === 1)).toBe(true);
  });

  it('a 429 for one DM channel pauses that channel only; the team’s other channels go on', async () => {
    fake.script('chat.postMessage', (body) =>
      body.channel === 'U_BOB' && dmAttempts(fake).length <= 1
        ? { status: 429, headers: { 'retry-after': '2' } }
        : undefined,
    );
    const [bob] = await outbox.enqueue([matchedRow('T_A', 'U_BOB')], 'slack');
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(() => worker!.stats.rateLimited === 1);
    const refusedAt = dmAttempts(fake)[0].at;
    // Queued after the refusal, for the same team: delivered while Bob's channel waits.
    const others = await outbox.enqueue(
      [matchedRow('T_A', 'U_CAROL'), matchedRow('T_A', 'U_DAN')],
      'slack',
    );
    worker.wake();
    await waitFor(async () => (await statuses(others)).every((s) => s === 'sent'));
    expect(await worker.teamPausedUntil('T_A')).toBeUndefined();
    expect((await outbox.get(bob.id))?.status).toBe('pending');
    const othersAt = dmCalls(fake).filter((c) => c.body.channel !== 'U_BOB');
    expect(othersAt.every((c) => c.at - refusedAt < 1_500)).toBe(true);
    // Bob's DM goes once his channel's Retry-After has passed.
    await waitFor(async () => (await outbox.get(bob.id))?.status === 'sent', { timeoutMs: 5_000 });
    const bobCalls = dmAttempts(fake).filter((c) => c.body.channel === 'U_BOB');
    expect(bobCalls).toHaveLength(2);
    expect(bobCalls[1].at - bobCalls[0].at).toBeGreaterThanOrEqual(2_000);
  });

  it('never sends two DMs into one channel within a second, and other channels do not wait', async () => {
    const rows = await outbox.enqueue(
      [
        matchedRow('T_A', 'U_BOB'),
        matchedRow('T_A', 'U_BOB'),
        matchedRow('T_A', 'U_BOB'),
        matchedRow('T_A', 'U_CAROL'),
        matchedRow('T_A', 'U_DAN'),
      ],
      'slack',
    );
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.counts()).sent === rows.length, { timeoutMs: 8_000 });
    const calls = dmAttempts(fake);
    const bob = calls.filter((c) => c.body.channel === 'U_BOB');
    expect(bob).toHaveLength(3);
    expect(bob[1].at - bob[0].at).toBeGreaterThanOrEqual(1_000);
    expect(bob[2].at - bob[1].at).toBeGreaterThanOrEqual(1_000);
    // In the order they were queued.
    expect(bob.map(outboxIdOf)).toEqual(rows.slice(0, 3).map((r) => r.id));
    // Carol and Dan, queued behind Bob's three, did not wait for his channel.
    for (const c of calls.filter((x) => x.body.channel !== 'U_BOB')) {
      expect(c.at - bob[0].at).toBeLessThan(500);
    }
  });

  it('retries a 500 with backoff; the retry checks the DM first and sends once', async () => {
    fake.script('chat.postMessage', (_b, n) =>
      n <= 2 ? { status: 500, body: { ok: false, error: 'internal' } } : undefined,
    );
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_BOB')], 'slack');
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'sent');
    expect(dmAttempts(fake)).toHaveLength(3);
    expect(dmCalls(fake)).toHaveLength(1);
    expect((await outbox.get(row.id))?.attempts).toBe(3);
    expect(worker.stats.retried).toBe(2);
    // A 5xx leaves the outcome unknown, so the retries looked in the DM first.
    expect(fake.callsOf('conversations.history').length).toBeGreaterThanOrEqual(2);
  });

  it('does not resend a DM whose answer came too late (timeout): it is found and kept', async () => {
    // Slack posts the message but answers after the client gave up.
    fake.script('chat.postMessage', (_b, n) => (n === 1 ? { delayMs: 1_500 } : undefined));
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_CAROL')], 'slack');
    worker = testWorker(tmp.store, fake.apiUrl, { timeoutMs: 300 });
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'sent', { timeoutMs: 10_000 });
    expect(dmAttempts(fake)).toHaveLength(1);
    expect(worker.stats.reconciled).toBe(1);
    const history = await fake.waitForCall('conversations.history');
    expect(history.body.channel).toBe(imOf('U_CAROL'));
    expect(String(history.body.include_all_metadata)).toBe('true');
  });

  it('sends again after a timeout when the DM is not in the channel', async () => {
    // The first call hangs past the client's timeout and is then refused: nothing posted.
    fake.script('chat.postMessage', (_b, n) =>
      // biome-ignore lint/suspicious/noThenProperty: the fake's ScriptReply names it `then`.
      n === 1 ? { delayMs: 400, then: { status: 503 } } : undefined,
    );
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_DAN')], 'slack');
    // The retry (≥ 500 ms later) comes after Slack's late refusal.
    worker = testWorker(tmp.store, fake.apiUrl, { timeoutMs: 300, retryBaseMs: 1_000 });
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'sent', { timeoutMs: 10_000 });
    expect(dmAttempts(fake)).toHaveLength(2);
    expect(dmCalls(fake)).toHaveLength(1);
    expect(fake.callsOf('conversations.history')).toHaveLength(1);
  });

  it.each([
    'user_not_found',
    'account_inactive',
    'token_revoked',
    'invalid_auth',
    'channel_not_found',
    'is_bot',
  ])('records %s as a permanent failure with its reason', async (error) => {
    fake.script('chat.postMessage', () => ({ ok: false, error }));
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_GONE')], 'slack');
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'failed');
    expect((await outbox.get(row.id))?.lastError).toBe(error);
    expect(dmAttempts(fake)).toHaveLength(1);
    expect((await outbox.summary('T_A')).recentFailures.map((r) => r.lastError)).toEqual([error]);
  });

  it('gives up on a row after maxAttempts transient failures, saying why', async () => {
    fake.script('chat.postMessage', () => ({ status: 502 }));
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_BOB')], 'slack');
    worker = testWorker(tmp.store, fake.apiUrl, { maxAttempts: 3 });
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'failed');
    expect((await outbox.get(row.id))?.lastError).toBe('gave up after 3 attempts: HTTP 502');
    expect(dmAttempts(fake)).toHaveLength(3);
  });

  it('skips the creator when the recipient is the Slack user who created the task', async () => {
    const [row] = await outbox.enqueue(
      [matchedRow('T_A', 'U_BOB', { actorSlackUserId: 'U_BOB' })],
      'slack',
    );
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'skipped');
    expect(dmAttempts(fake)).toHaveLength(0);
  });

  it('fails rows of a team that has no bot token', async () => {
    const [row] = await outbox.enqueue([matchedRow('T_GONE', 'U_BOB')], 'slack');
    worker = testWorker(tmp.store, fake.apiUrl, {
      slackFor: async () => undefined,
    });
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'failed');
    expect((await outbox.get(row.id))?.lastError).toMatch(/not installed/);
  });
});

describe('restart', () => {
  it('reconciles a row a dead worker left in sending: already posted → not sent again', async () => {
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_BOB')], 'slack');
    // A worker that died (its claim has run out): Slack got the DM, the row was never marked.
    await outbox.claim(row.id, Date.now(), -1);
    await new WebClient('xoxb-T_A', { slackApiUrl: fake.apiUrl }).chat.postMessage({
      channel: 'U_BOB',
      text: 'earlier',
      metadata: {
        event_type: 'worklink_task_assigned',
        event_payload: { outbox_id: row.id, marker: row.marker },
      },
    });
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'sent');
    expect(dmCalls(fake)).toHaveLength(1);
    expect(worker.stats.reconciled).toBe(1);
    expect(fake.callsOf('conversations.open')).toHaveLength(1);
  });

  it('reconciles a row a dead worker left in sending: not posted → sent once', async () => {
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_CAROL')], 'slack');
    await outbox.claim(row.id, Date.now(), -1);
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'sent');
    expect(dmCalls(fake)).toHaveLength(1);
    expect(fake.callsOf('conversations.history')).toHaveLength(1);
  });

  it('leaves a row alone while another worker’s claim is still valid', async () => {
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_DAN')], 'slack');
    await outbox.claim(row.id, Date.now(), 60_000);
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    const other = await outbox.enqueue([matchedRow('T_A', 'U_ERIN')], 'slack');
    worker.wake();
    await waitFor(async () => (await outbox.get(other[0].id))?.status === 'sent');
    expect((await outbox.get(row.id))?.status).toBe('sending');
    expect(dmsToIm('U_DAN')).toHaveLength(0);
  });

  it('resends when DM history cannot be read (no im:history scope), rather than lose the DM', async () => {
    fake.script('conversations.history', () => ({ ok: false, error: 'missing_scope' }));
    const [row] = await outbox.enqueue([matchedRow('T_A', 'U_BOB')], 'slack');
    await outbox.claim(row.id, Date.now(), -1);
    worker = testWorker(tmp.store, fake.apiUrl);
    worker.start();
    await waitFor(async () => (await outbox.get(row.id))?.status === 'sent');
    expect(dmCalls(fake)).toHaveLength(1);
  });
});

function dmsToIm(user: string) {
  return dmCalls(fake).filter((c) => imOf(String(c.body.channel)) === imOf(user));
}
