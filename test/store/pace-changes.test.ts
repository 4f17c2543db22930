/**
 * The shared DM pace's changes (src/store/tables/pace/): two instances changing one team at
 * the same moment lose none of each other's changes, a channel's moment is kept whoever
 * moves it, and on PostgreSQL a change is one statement — no transaction — once the team's
 * row is known to the instance.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaceChanger, Store } from '../../src/store/index.js';
import { pgDatabase } from '../../src/store/pg/index.js';
import { storeEngines } from '../support/store-engines.js';

/** Counts one more accepted send; moves the channel (when given) to `channelAt`. */
const count =
  (channelAt?: number): PaceChanger<number> =>
  (s, channelReadyAt) => {
    const n = (s.run?.count ?? 0) + 1;
    s.run = { start: 1, last: 1, count: n };
    return {
      result: channelReadyAt,
      blockedUntil: 0,
      ...(channelAt === undefined ? {} : { channelReadyAt: channelAt }),
    };
  };

const countOf = async (store: Store, teamId: string) =>
  store.pace.change(teamId, undefined, (s) => ({ result: s.run?.count ?? 0, blockedUntil: 0 }));

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
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).pace.change('T1', undefined, count())),
    );
    expect(await countOf(a, 'T1')).toBe(40);
    expect(await countOf(b, 'T1')).toBe(40);
  });

  it('hands each instance the channel’s moment as the other one left it', async () => {
    expect(await a.pace.change('T1', 'U1', count(5_000))).toBe(0);
    expect(await b.pace.change('T1', 'U1', count(7_000))).toBe(5_000);
    expect(await a.pace.change('T1', 'U1', count())).toBe(7_000);
    expect(await countOf(b, 'T1')).toBe(3);
  });
});

describe.each(storeEngines().filter((e) => e.name === 'PostgreSQL'))('$name', (engine) => {
  it('changes the pace in one statement and no transaction once the team is known', async () => {
    const store = await (await engine.fresh()).open();
    const db = pgDatabase(store);
    if (!db) throw new Error('not PostgreSQL');
    await store.pace.change('T1', 'U0', count(1));
    const before = db.counts();
    for (let i = 1; i <= 10; i++) await store.pace.change('T1', `U${i}`, count(i + 1));
    const after = db.counts();
    expect(after.statements - before.statements).toBe(10);
    expect(after.transactions - before.transactions).toBe(0);
    expect(await countOf(store, 'T1')).toBe(11);

    // Changes made at once by one instance (a worker sends several DMs at a time) take turns
    // instead of missing each other: still one statement each.
    const atOnce = db.counts();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.pace.change('T1', `V${i}`, count(i + 1))),
    );
    expect(db.counts().statements - atOnce.statements).toBe(10);
    expect(await countOf(store, 'T1')).toBe(21);
  });
});
