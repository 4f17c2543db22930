/**
 * The shared DM pace's changes (src/store/tables/pace/): two instances changing one team at
 * the same moment lose no change made, a channel's moment is kept whoever moves it, and on
 * PostgreSQL the instance that changes a team holds it (a lease): its changes are made in
 * memory, written when the lease is renewed or settled, and another instance is told the
 * team is paused until then — and takes it over when it is settled, or when the lease of a
 * holder that died ran out.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ChannelPacer } from '../../src/slack/notify/channel-pacer.js';
import { SharedPace } from '../../src/slack/notify/shared-pace.js';
import type { PaceChanger, Store } from '../../src/store/index.js';
import { pgDatabase } from '../../src/store/pg/index.js';
import { LEASE_MS, pgPaceStore, RENEW_MS } from '../../src/store/tables/pace/pg.js';
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

/** Counts one more accepted send, unless the team is held by another instance (not made). */
const countUnlessHeld: PaceChanger<boolean> = (s) => {
  if ((s.pausedUntil ?? 0) > Date.now()) return { result: false, blockedUntil: 0 };
  s.run = { start: 1, last: 1, count: (s.run?.count ?? 0) + 1 };
  return { result: true, blockedUntil: 0 };
};

describe.each(storeEngines())('$name', (engine) => {
  let a: Store;
  let b: Store;
  beforeEach(async () => {
    const db = await engine.fresh();
    a = await db.open();
    b = await db.open();
  });

  it('loses no change made when two instances change one team at the same moment', async () => {
    // On PostgreSQL the first to change the team holds it: the other's changes are not made,
    // and it is told the team is paused until the lease ends.
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).pace.change('T1', [], countUnlessHeld)),
    );
    const n = made.filter(Boolean).length;
    expect(n).toBe(engine.name === 'SQLite' ? 40 : 20);
    await Promise.all([a.pace.settle(), b.pace.settle()]);
    expect(await countOf(a, 'T1')).toBe(n);
    expect(await countOf(b, 'T1')).toBe(n);
  });

  it('hands each instance the channel’s moment as the other one left it', async () => {
    expect(await a.pace.change('T1', on('U1'), count('U1', 5_000))).toBe(0);
    await a.pace.settle();
    expect(await b.pace.change('T1', on('U1'), count('U1', 7_000))).toBe(5_000);
    await b.pace.settle();
    expect(await a.pace.change('T1', on('U1'), count('U1'))).toBe(7_000);
    await a.pace.settle();
    expect(await countOf(b, 'T1')).toBe(3);
  });
});

describe.each(storeEngines().filter((e) => e.name === 'PostgreSQL'))('$name', (engine) => {
  it('changes a team it holds in memory: no statement per change, one per renewal of its lease', async () => {
    const database = await engine.fresh();
    const store = await database.open();
    const other = await database.open();
    const db = pgDatabase(store);
    if (!db) throw new Error('not PostgreSQL');
    let now = Date.now();
    const pace = pgPaceStore(db, { clock: () => now });
    await pace.change('T1', on('U0'), count('U0', 1));
    const before = db.counts();
    for (let i = 1; i <= 10; i++) await pace.change('T1', on(`U${i}`), count(`U${i}`, i + 1));
    // Changes made at once by one instance (a worker sends several DMs at a time) too.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => pace.change('T1', on(`V${i}`), count(`V${i}`, i + 1))),
    );
    expect(db.counts().statements - before.statements).toBe(0);
    expect(await countOf({ ...store, pace }, 'T1')).toBe(21);

    // Another instance sees the team blocked until the lease ends, and changes nothing.
    expect(await other.pace.blocked(now)).toEqual([{ teamId: 'T1', until: now + LEASE_MS }]);
    expect(await other.pace.change('T1', [], countUnlessHeld)).toBe(false);

    // Once less than RENEW_MS is left, the next change writes all of them and renews: one
    // statement, no transaction; the other instance sees them.
    now += LEASE_MS - RENEW_MS + 1;
    const renewal = db.counts();
    await pace.change('T1', on('W'), count('W', 1));
    expect(db.counts().statements - renewal.statements).toBe(1);
    expect(db.counts().transactions - renewal.transactions).toBe(0);
    expect(await other.pace.blocked(now)).toEqual([{ teamId: 'T1', until: now + LEASE_MS }]);
    await pace.settle();
    expect(await countOf(other, 'T1')).toBe(22);
    expect(await other.pace.change('T1', on('V9'), count('V9'))).toBe(10);
  });

  it('lets another instance take a team once its holder settled it, or once the lease of a holder that died ran out', async () => {
    const database = await engine.fresh();
    const [sa, sb] = [await database.open(), await database.open()];
    const [dba, dbb] = [pgDatabase(sa), pgDatabase(sb)];
    if (!dba || !dbb) throw new Error('not PostgreSQL');
    let now = Date.now();
    const pa = pgPaceStore(dba, { clock: () => now });
    const pb = pgPaceStore(dbb, { clock: () => now });
    const pausedUntil: PaceChanger<number | undefined> = (s) => ({
      result: s.pausedUntil,
      blockedUntil: 0,
    });

    // A holds the team; B is told it is paused until A's lease ends.
    expect(await pa.change('T1', on('U1'), count('U1', now + 1_050))).toBe(0);
    expect(await pb.change('T1', [], pausedUntil)).toBe(now + LEASE_MS);
    expect(await pb.change('T1', [], countUnlessHeld)).toBe(false);
    // A settles: B takes the team at once, with A's channel moments.
    await pa.settle();
    expect(await pb.change('T1', on('U1'), count('U1'))).toBe(now + 1_050);
    expect(await pa.change('T1', [], pausedUntil)).toBe(now + LEASE_MS);

    // B dies holding the team (never settles). A takes it when B's lease runs out.
    const died = now;
    now = died + LEASE_MS - 1;
    expect(await pa.change('T1', [], countUnlessHeld)).toBe(false);
    now = died + LEASE_MS;
    expect(await pa.change('T1', on('U2'), count('U2', now + 1_050))).toBe(0);
    expect(await countOf({ ...sa, pace: pa }, 'T1')).toBe(3);
    // B, back from its stall before its lease ran out by its own clock, writes nothing: its
    // renewal finds the team changed, held by A.
    now = died + LEASE_MS - RENEW_MS + 1;
    expect(await pb.change('T1', [], countUnlessHeld)).toBe(false);
    now = died + LEASE_MS;
    await pa.settle();
    expect(await countOf(sb, 'T1')).toBe(3);
  });

  it('takes DMs’ paces with no statement while it holds the team, and writes them when settled', async () => {
    const database = await engine.fresh();
    const store = await database.open();
    const db = pgDatabase(store);
    if (!db) throw new Error('not PostgreSQL');
    const pace = new SharedPace(store.pace, new ChannelPacer());
    await pace.begin('T1', 'U0', 1);
    pace.answered('T1', 'U0', 1, 2);

    // One DM at a time: begin, send, answered — no statement (one per DM before the lease).
    const one = db.counts();
    for (let i = 1; i <= 10; i++) {
      expect(await pace.begin('T1', `U${i}`, i * 10)).toBeUndefined();
      pace.answered('T1', `U${i}`, i * 10, i * 10 + 5);
    }
    // Eight DMs' slots in one change, and their eight answers.
    const channels = Array.from({ length: 8 }, (_, i) => `V${i}`);
    expect(await pace.take('T1', channels, 200, { aheadMs: 0 })).toEqual(channels.map(() => 200));
    for (const c of channels) pace.answered('T1', c, 200, 205);
    expect(db.counts().statements - one.statements).toBe(0);
    // Settled (the worker does it once the team goes quiet here, and at its stop): one.
    await pace.flush();
    expect(db.counts().statements - one.statements).toBe(1);
    expect(db.counts().transactions - one.transactions).toBe(0);

    // Nothing was lost on the way: every accepted send counted (the run), seen by another store.
    expect(await countOf(await database.open(), 'T1')).toBe(19);
  });
});
