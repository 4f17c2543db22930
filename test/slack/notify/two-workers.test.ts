/**
 * Two outbox workers, each with its own connection to one database (two instances; SQLite and
 * PostgreSQL), deliver one queue to a fake Slack that refuses a second message into one DM
 * channel within a second (Slack's per-channel limit): both take part (the first to send is
 * stopped midway: on PostgreSQL one instance paces a team at a time), every DM goes out
 * once, and the channel pace they share keeps them from colliding in a channel — no 429 from
 * the channel limit (without it they do not even finish: the collisions look like the team's
 * limit and pause the team).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { waitFor } from '../../support/harness.js';
import { matchedRow, testWorker } from '../../support/notify-rows.js';
import {
  dmCalls,
  dmCountsByOutboxId,
  imOf,
  scriptDmHistory,
  scriptRateLimit,
} from '../../support/notify-slack.js';
import { storeEngines } from '../../support/store-engines.js';

let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack({ teamId: 'T_TWO' });
});
afterAll(() => fake?.close());

for (const engine of storeEngines()) {
  it(`${engine.name}: share one queue: each DM once, one a second per DM channel between them`, async () => {
    fake.reset();
    scriptDmHistory(fake);
    const db = await engine.fresh();
    const stores: Store[] = [await db.open(), await db.open()];
    // Slack takes 300 ms per send and each worker holds at most 2 at once, so the first
    // worker to look cannot take every ready channel before the other looks: both take part
    // however the two are scheduled (a worker claims a team's rows in batches, and on a
    // loaded machine one could otherwise take the whole queue).
    const limits = scriptRateLimit(fake, { perSecond: 50, perChannel: true, latencyMs: 300 });
    const users = ['U_A1', 'U_A2', 'U_A3', 'U_A4'];
    const rows = await stores[0].outbox.enqueue(
      Array.from({ length: 12 }, (_, i) => matchedRow('T_TWO', users[i % users.length])),
      'slack',
    );
    // The app's 10 s Web API timeout, not the fixtures' 1 s: on a loaded machine a send that
    // Slack took can outlast 1 s, and a timed-out send is found again by reconciling (not
    // counted as sent) while the channel's second is already given to the next send.
    // Sends into a channel 1.5 s apart by the shared pace (the app: 1.05 s): the fake measures
    // when a send arrives, the pace when it starts, and on a loaded machine the way between
    // varies by more than 50 ms. Without a shared pace the two still collide within 1 s.
    const workers = stores.map((s, i) =>
      testWorker(s, fake.apiUrl, {
        instanceId: `W${i}`,
        timeoutMs: 10_000,
        maxInFlight: 2,
        channelPacing: { intervalMs: 1_500 },
      }),
    );
    for (const w of workers) w.start();
    try {
      // One team: on PostgreSQL one instance paces it at a time (its lease on the team's
      // pace), so the other takes part once the first stops — its stop settles the team, and
      // the other goes on from the channels' moments it left.
      const first = await waitFor(() => workers.find((w) => w.stats.sent >= 3), {
        timeoutMs: 20_000,
      });
      await first.stop();
      await waitFor(async () => (await stores[1].outbox.counts()).sent === rows.length, {
        timeoutMs: 20_000,
      });
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }

    expect([...dmCountsByOutboxId(fake).values()]).toEqual(rows.map(() => 1));
    // Both instances sent some.
    expect(workers.map((w) => w.stats.sent).every((n) => n > 0)).toBe(true);
    expect(workers[0].stats.sent + workers[1].stats.sent).toBe(rows.length);
    // The channel pace is shared: no channel refused a send for coming too soon.
    expect(limits.limitedChannel).toBe(0);
    for (const user of users) {
      const at = dmCalls(fake)
        .filter((c) => imOf(String(c.body.channel)) === imOf(user))
        .map((c) => c.at);
      for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(1_000);
    }
  });
}
