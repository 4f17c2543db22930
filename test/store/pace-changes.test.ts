/**
 * The shared DM pace's changes (src/store/tables/pace/): two instances changing one team at
 * the same moment lose none of each other's changes, a channel's moment is kept whoever
 * moves it, and on PostgreSQL a change is one statement — no transaction — once the team's
 * row is known to the instance.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ChannelPacer } from '../../src/slack/notify/channel-pacer.js';
import { SharedPace } from '../../src/slack/notify/shared-pace.js';
import type { PaceChanger, Store } from '../../src/store/index.js';
import { pgDatabase } from '../../src/store/pg/index.js';
import { storeEngines } from '../support/store-engines.js';

/**
 * Counts one more accepted send; answers the channel's moment as found and moves it (when
 * given) to `channelAt`.
 */
const count =
  (channel?: string, channelAt?: number): PaceChanger<number> =>
  (s, moments) => {
    const n = (s.run?.count ?? 0) + 1;
    s.run = { start: 1, last: 1, count: n };
    const found = channel ? (moments.get(channel) ?? -1) : 0;
    if (channel && channelAt !== undefined) moments.set(channel, channelAt);
    return { result: found, blockedUntil: 0 };
  };

const on = (channel?: string) => (channel ? [channel] : []);

const countOf = async (store: Store, teamId: string) =>
  store.pace.change(teamId, [], (s) => ({ result: s.run?.count ?? 0, blockedUntil: 0 }));

describe.each(storeEngines())('$name', (engine) => {
  let a: Store;
  let b: Store;
  beforeEach(async () => {
    const db = await engine.fresh();
    a = await db.open();
    b = await db.open();
  });

  it('loses no change when two instances change one team at the same moment', async () => {
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).pace.change('T1', [], count())),
    );
    expect(await countOf(a, 'T1')).toBe(40);
    expect(await countOf(b, 'T1')).toBe(40);
  });

  it('hands each instance the channel’s moment as the other one left it', async () => {
    expect(await a.pace.change('T1', on('U1'), count('U1', 5_000))).toBe(0);
    expect(await b.pace.change('T1', on('U1'), count('U1', 7_000))).toBe(5_000);
    expect(await a.pace.change('T1', on('U1'), count('U1'))).toBe(7_000);
    expect(await countOf(b, 'T1')).toBe(3);
  });
});

describe.each(storeEngines().filter((e) => e.name === 'PostgreSQL'))('$name', (engine) => {
  it('changes the pace in one statement and no transaction once the team is known', async () => {
    const store = await (await engine.fresh()).open();
    const db = pgDatabase(store);
    if (!db) throw new Error('not PostgreSQL');
    await store.pace.change('T1', on('U0'), count('U0', 1));
    const before = db.counts();
    for (let i = 1; i <= 10; i++) await store.pace.change('T1', on(`U${i}`), count(`U${i}`, i + 1));
    const after = db.counts();
    expect(after.statements - before.statements).toBe(10);
    expect(after.transactions - before.transactions).toBe(0);
    expect(await countOf(store, 'T1')).toBe(11);

    // Changes made at once by one instance (a worker sends several DMs at a time) take turns
    // instead of missing each other: still one statement each.
    const atOnce = db.counts();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.pace.change('T1', on(`V${i}`), count(`V${i}`, i + 1)),
      ),
    );
    expect(db.counts().statements - atOnce.statements).toBe(10);
    expect(await countOf(store, 'T1')).toBe(21);
  });

  it('takes a DM’s pace in one statement, its answer riding with the next; several DMs in one', async () => {
    const database = await engine.fresh();
    const store = await database.open();
    const db = pgDatabase(store);
    if (!db) throw new Error('not PostgreSQL');
    const pace = new SharedPace(store.pace, new ChannelPacer());
    await pace.begin('T1', 'U0', 1);
    pace.answered('T1', 'U0', 1, 2);

    // One DM at a time: begin, send, answered — one statement per DM (two before).
    const one = db.counts();
    for (let i = 1; i <= 10; i++) {
      expect(await pace.begin('T1', `U${i}`, i * 10)).toBeUndefined();
      pace.answered('T1', `U${i}`, i * 10, i * 10 + 5);
    }
    expect(db.counts().statements - one.statements).toBe(10);
    expect(db.counts().transactions - one.transactions).toBe(0);

    // Eight DMs' slots in one statement; their eight answers in one more.
    const eight = db.counts();
    const channels = Array.from({ length: 8 }, (_, i) => `V${i}`);
    expect(await pace.take('T1', channels, 200, { aheadMs: 0 })).toEqual(channels.map(() => 200));
    for (const c of channels) pace.answered('T1', c, 200, 205);
    await pace.flush();
    expect(db.counts().statements - eight.statements).toBe(2);

    // Nothing was lost on the way: every accepted send counted (the run), seen by another store.
    expect(await countOf(await database.open(), 'T1')).toBe(19);
  });
});
