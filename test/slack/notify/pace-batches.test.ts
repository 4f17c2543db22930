/**
 * The outbox worker takes the shared pace for the DMs it claims together — one change of the
 * pace for a team's whole batch (one statement on PostgreSQL), not one per DM — and a paced
 * team's slots within `paceAheadMs` are reserved at once, each DM sent at its moment. Every
 * DM still goes out once. Both engines, a fake Slack.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChannelPacer } from '../../../src/slack/notify/channel-pacer.js';
import { SharedPace } from '../../../src/slack/notify/shared-pace.js';
import type { PaceStore, Store } from '../../../src/store/index.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { waitFor } from '../../support/harness.js';
import { matchedRow, testWorker } from '../../support/notify-rows.js';
import { dmCountsByOutboxId, scriptDmHistory } from '../../support/notify-slack.js';
import { storeEngines } from '../../support/store-engines.js';

const TEAM = 'T_BATCH';

let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack({ teamId: TEAM });
});
afterAll(() => fake?.close());

/** The store's pace, telling how many channels each change named. */
function counted(store: Store): { pace: PaceStore; named: number[] } {
  const named: number[] = [];
  return {
    named,
    pace: {
      change: (teamId, channels, fn) => {
        named.push(channels.length);
        return store.pace.change(teamId, channels, fn);
      },
      blocked: (now) => store.pace.blocked(now),
      sweep: (now) => store.pace.sweep(now),
      settle: (teamIds, options) => store.pace.settle(teamIds, options),
    },
  };
}

async function deliver(store: Store, pace: PaceStore, people: number, aheadMs?: number) {
  const rows = await store.outbox.enqueue(
    Array.from({ length: people }, (_, i) => matchedRow(TEAM, `U_P${i}`)),
    'slack',
  );
  const worker = testWorker(store, fake.apiUrl, {
    pace,
    timeoutMs: 10_000,
    ...(aheadMs === undefined ? {} : { paceAheadMs: aheadMs }),
  });
  worker.start();
  try {
    await waitFor(async () => (await store.outbox.counts()).sent === rows.length, {
      timeoutMs: 20_000,
    });
  } finally {
    await worker.stop();
  }
  expect([...dmCountsByOutboxId(fake).values()]).toEqual(rows.map(() => 1));
}

for (const engine of storeEngines()) {
  it(`${engine.name}: takes the pace for the DMs claimed together in one change`, async () => {
    fake.reset();
    scriptDmHistory(fake);
    const store = await (await engine.fresh()).open();
    const { pace, named } = counted(store);
    await deliver(store, pace, 12);
    // The first change took all twelve DMs' slots (before: one change per DM, and one more
    // per answer); the answers were written afterwards.
    expect(named[0]).toBe(12);
  });

  it(`${engine.name}: reserves a paced team's next slots and sends each DM once at its moment`, async () => {
    fake.reset();
    scriptDmHistory(fake);
    const store = await (await engine.fresh()).open();
    // The team learned 20 DMs a second (one per 50 ms) and is paused for 100 ms.
    const learn = new SharedPace(store.pace, new ChannelPacer(), { headroom: 1 });
    const now = Date.now();
    for (let i = 0; i < 20; i++) learn.answered(TEAM, `U_L${i}`, now - 1_000 + i * 50, now - 990);
    await learn.refused(TEAM, 'U_X', 100, now, now - 20);
    expect(await learn.refused(TEAM, 'U_Y', 100, now, now - 10)).toBe('team');
    expect(Math.round(1_000 / (await learn.state(TEAM, now)).intervalMs!)).toBe(20);

    const { pace, named } = counted(store);
    await deliver(store, pace, 10, 200);
    // Several DMs' slots in one change: up to 200 ms of 50 ms slots.
    expect(Math.max(...named)).toBeGreaterThan(1);
  });
}
