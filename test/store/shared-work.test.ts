/**
 * Work shared by several instances on one database, each instance its own connection (two
 * stores opened on one database): outbox leases stamped with their holder, renewed, and taken
 * over once they run out; leases on periodic work (one holder per due time, the next instance
 * after expiry); the DM pace, one for the team and one second per channel, whoever sends.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ChannelPacer } from '../../src/slack/notify/channel-pacer.js';
import { SharedPace } from '../../src/slack/notify/shared-pace.js';
import type { PaceStore, Store } from '../../src/store/index.js';
import { waitFor } from '../support/harness.js';
import { matchedRow } from '../support/notify-rows.js';
import { storeEngines } from '../support/store-engines.js';

for (const engine of storeEngines()) {
  let a: Store;
  let b: Store;
  beforeEach(async () => {
    // Two instances: two stores (two connections, pools) on one database; closed by storeEngines.
    const db = await engine.fresh();
    a = await db.open();
    b = await db.open();
  });

  describe(`${engine.name}: `, () => {
    describe('outbox leases', () => {
      it('stamps the holder; renews only its own rows; another instance takes a row once its lease ran out', async () => {
        const [row, other] = await a.outbox.enqueue(
          [matchedRow('T1', 'U_BOB'), matchedRow('T1', 'U_CAROL')],
          'slack',
          0,
        );
        const claimed = await a.outbox.claim(row.id, 1_000, 30_000, 'A');
        expect(claimed).toMatchObject({ status: 'sending', claimedBy: 'A', claimedUntil: 31_000 });
        expect(await b.outbox.claim(row.id, 1_001, 30_000, 'B')).toBeUndefined();
        await b.outbox.claim(other.id, 1_002, 30_000, 'B');

        // Renewal keeps A's row and not B's.
        expect(await a.outbox.renew([row.id, other.id], 'A', 50_000)).toEqual([row.id]);
        expect(await b.outbox.claim(row.id, 40_000, 30_000, 'B')).toBeUndefined();

        // A stops renewing (it died): after 50 000 B takes the row over, to be reconciled.
        const taken = await b.outbox.claim(row.id, 50_000, 30_000, 'B');
        expect(taken).toMatchObject({ claimedBy: 'B', uncertain: true, attempts: 2 });
        expect(await a.outbox.renew([row.id], 'A', 90_000)).toEqual([]);
      });
    });

    describe('leases on periodic work', () => {
      it('gives due work to one instance, tells the others when it is due, and lets another take it after a holder died', async () => {
        const keys = ['watch:T1:P1', 'watch:T1:P2'];
        const first = await a.leases.claim(keys, 'A', 1_000, 10_000);
        expect(first.taken).toEqual([{ key: 'watch:T1:P1' }, { key: 'watch:T1:P2' }]);
        const second = await b.leases.claim(keys, 'B', 1_001, 10_000);
        expect(second.taken).toEqual([]);
        expect(second.busy).toEqual([
          { key: 'watch:T1:P1', until: 11_000 },
          { key: 'watch:T1:P2', until: 11_000 },
        ]);

        // A finishes P1 (next look at 61 000) and dies holding P2.
        expect(await a.leases.finish('watch:T1:P1', 'A', 61_000)).toBe(true);
        const later = await b.leases.claim(keys, 'B', 11_000, 10_000);
        expect(later.taken).toEqual([{ key: 'watch:T1:P2', previousHolder: 'A' }]);
        expect(later.busy).toEqual([{ key: 'watch:T1:P1', until: 61_000 }]);
        // A, back from a stall, no longer holds P2.
        expect(await a.leases.finish('watch:T1:P2', 'A', 70_000)).toBe(false);
        expect(await b.leases.finish('watch:T1:P2', 'B', 71_000)).toBe(true);
        expect((await a.leases.claim(keys, 'A', 61_000, 10_000)).taken).toEqual([
          { key: 'watch:T1:P1', previousHolder: 'A' },
        ]);
      });
    });

    describe('the shared DM pace', () => {
      const paceOf = (store: Store) =>
        new SharedPace(store.pace, new ChannelPacer(), { headroom: 1 });
      // Instances take turns on a team: the one that acted last settles it (its answers
      // written; on PostgreSQL its lease let go) before the other acts. While one holds the
      // team, the other is told it may not send (below).
      let last: SharedPace | undefined;
      beforeEach(() => {
        last = undefined;
      });
      const by = async (p: SharedPace) => {
        if (last && last !== p) await last.flush();
        last = p;
        return p;
      };

      it('gives a DM channel one send a second, whichever instance sends', async () => {
        const [pa, pb] = [paceOf(a), paceOf(b)];
        expect(await (await by(pa)).begin('T1', 'U_BOB', 1_000)).toBeUndefined();
        expect(await (await by(pb)).begin('T1', 'U_BOB', 1_100)).toEqual({
          at: 2_050,
          scope: 'channel',
        });
        expect(await pb.begin('T1', 'U_CAROL', 1_100)).toBeUndefined();
        expect(await pb.begin('T1', 'U_BOB', 2_050)).toBeUndefined();
      });

      it('learns the team limit from every instance’s accepted sends and holds both to it', async () => {
        const [pa, pb] = [paceOf(a), paceOf(b)];
        // 50 sends in half a second, alternating instances; then refusals in two channels.
        for (let i = 0; i < 50; i++) {
          const p = await by(i % 2 ? pb : pa);
          const user = `U${i}`;
          expect(await p.begin('T1', user, i * 10)).toBeUndefined();
          p.answered('T1', user, i * 10, i * 10 + 5);
        }
        expect(await (await by(pa)).refused('T1', 'U_X', 1_000, 510, 500)).toBe('channel');
        expect(await (await by(pb)).refused('T1', 'U_Y', 1_000, 520, 505)).toBe('team');
        // Both instances see the pause and the one learned pace: 50/s, not 25/s each.
        expect(await (await by(pa)).blocked(600)).toEqual({ teams: ['T1'], nextReadyAt: 1_520 });
        const state = await (await by(pb)).state('T1', 600);
        expect(state.pausedUntil).toBe(1_520);
        expect(1_000 / state.intervalMs!).toBeCloseTo(50, 0);
        expect(await (await by(pa)).begin('T1', 'U_Z', 600)).toEqual({ at: 1_520, scope: 'team' });
        // After the pause, one slot per 20 ms between them.
        expect(await pa.begin('T1', 'U_Z', 1_520)).toBeUndefined();
        expect((await (await by(pb)).begin('T1', 'U_W', 1_521))?.scope).toBe('team');
        expect(await pb.begin('T1', 'U_W', 1_540)).toBeUndefined();
      });

      it('does not learn a crawl from the answers and refusals of a burst already learned from', async () => {
        // bench:scale once delivered 279 of 500 DMs in its 120 s: two instances, 32 sends in
        // flight, and their answers arrive in any order. The first two refusals learn 50/s;
        // then two sends that Slack had accepted before the limit are answered (late), and a
        // third send of the same burst is refused. Before: the late answers began a new run of
        // 2, the third refusal learned 2 / 1 s from it, and the team crawled at 1.9/s for the
        // two minutes a pace is kept.
        const [pa, pb] = [paceOf(a), paceOf(b)];
        for (let i = 0; i < 48; i++) {
          const p = await by(i % 2 ? pb : pa);
          expect(await p.begin('T1', `U${i}`, i * 10)).toBeUndefined();
          p.answered('T1', `U${i}`, i * 10, i * 10 + 5);
        }
        await (await by(pa)).begin('T1', 'U48', 480);
        await (await by(pb)).begin('T1', 'U49', 490);
        expect(await (await by(pa)).refused('T1', 'U_X', 1_000, 510, 500)).toBe('channel');
        expect(await (await by(pb)).refused('T1', 'U_Y', 1_000, 520, 505)).toBe('team');
        (await by(pa)).answered('T1', 'U48', 480, 525);
        (await by(pb)).answered('T1', 'U49', 490, 530);
        await (await by(pa)).refused('T1', 'U_V', 1_000, 540, 508);
        const state = await (await by(pb)).state('T1', 600);
        // 48 then 50 accepted in the burst's half second (its window: 1 s).
        expect(1_000 / state.intervalMs!).toBeCloseTo(50, 0);
        expect(state.pausedUntil).toBe(1_540);
        // The first sends after the pause begin the next run, which the next 429 learns from.
        await by(pa);
        for (let i = 0; i < 30; i++) {
          const at = 1_540 + i * 20;
          expect(await pa.begin('T1', `W${i}`, at)).toBeUndefined();
          pa.answered('T1', `W${i}`, at, at + 5);
        }
        await pa.refused('T1', 'U_X2', 1_000, 2_140, 2_130);
        expect(await (await by(pb)).refused('T1', 'U_Y2', 1_000, 2_141, 2_135)).toBe('team');
        // 30 in the run's window of 1 s: the limit went down (another app shares it).
        expect(1_000 / (await pb.state('T1', 2_200)).intervalMs!).toBeCloseTo(30, 0);
      });

      it('takes slots for several DMs in one change, at the team’s pace, and never hands one out twice', async () => {
        const [pa, pb] = [paceOf(a), paceOf(b)];
        // A learned pace of 50/s (one slot per 20 ms) and a pause until 1 520.
        for (let i = 0; i < 50; i++) pa.answered('T1', `U${i}`, i * 10, i * 10 + 5);
        await (await by(pa)).refused('T1', 'U_X', 1_000, 510, 500);
        expect(await (await by(pb)).refused('T1', 'U_Y', 1_000, 520, 505)).toBe('team');
        // Slots within 50 ms of now are reserved; the rest are told when the team is free.
        expect(
          await (await by(pa)).take('T1', ['A1', 'A2', 'A3', 'A4', 'A5'], 1_520, { aheadMs: 50 }),
        ).toEqual([
          1_520,
          1_540,
          1_560,
          { at: 1_580, scope: 'team' },
          { at: 1_580, scope: 'team' },
        ]);
        // The other instance goes on after them; a channel given a slot waits its second.
        expect(
          await (await by(pb)).take('T1', ['B1', 'A1', 'B2'], 1_521, { aheadMs: 100 }),
        ).toEqual([1_580, { at: 2_570, scope: 'channel' }, 1_600]);
        // Rows without a known channel take a team slot only; the channel comes later.
        expect(await (await by(pa)).take('T1', [undefined], 1_530, { aheadMs: 100 })).toEqual([
          1_620,
        ]);
        expect(await pa.begin('T1', 'C1', 1_620, false)).toBeUndefined();
        expect(await (await by(pb)).begin('T1', 'C1', 1_700, false)).toEqual({
          at: 2_670,
          scope: 'channel',
        });
        await pb.flush();

        // Both instances taking at once: every slot once, 20 ms apart. On PostgreSQL the
        // first to take holds the team, and the other is told it may not send yet.
        const taken = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            (i % 2 ? pa : pb).take(
              'T1',
              [0, 1, 2].map((k) => `V${i}-${k}`),
              1_640,
              { aheadMs: 10_000 },
            ),
          ),
        );
        const slots = taken.flat().filter((x) => typeof x === 'number');
        const held = taken.flat().filter((x) => typeof x !== 'number');
        expect([...slots].sort((x, y) => x - y)).toEqual(
          Array.from({ length: slots.length }, (_, i) => 1_640 + i * 20),
        );
        expect(slots.length + held.length).toBe(24);
        if (engine.name === 'SQLite') expect(slots.length).toBe(24);
        else {
          expect(slots.length).toBe(12);
          for (const h of held) expect(h).toEqual({ at: expect.any(Number), scope: 'team' });
        }
      });

      it('writes accepted sends with the team’s next change, or on their own soon after', async () => {
        const [pa, pb] = [paceOf(a), paceOf(b)];
        for (let i = 0; i < 40; i++) pa.answered('T1', `U${i}`, i * 10, i * 10 + 5);
        // Written on their own (no other change of the team comes): the other instance sees
        // all 40 and every channel's next second.
        await waitFor(async () => {
          const run = await b.pace.change('T1', [], (s) => ({
            result: s.run?.count,
            blockedUntil: 0,
          }));
          return run === 40;
        });
        expect(await pb.begin('T1', 'U39', 1_000)).toEqual({ at: 1_440, scope: 'channel' });
        // Answers waiting ride with the next change: a refusal learns from them at once.
        for (let i = 40; i < 50; i++) pa.answered('T1', `U${i}`, i * 10, i * 10 + 5);
        await (await by(pa)).refused('T1', 'U_X', 1_000, 510, 500);
        expect(await (await by(pb)).refused('T1', 'U_Y', 1_000, 520, 505)).toBe('team');
        expect(1_000 / (await pb.state('T1', 600)).intervalMs!).toBeCloseTo(50, 0);
      });

      it('keeps answers for the team’s next change while it is paced here, and writes them once it goes quiet', async () => {
        let changes = 0;
        const counted: PaceStore = {
          change: (teamId, channels, fn) => {
            changes++;
            return a.pace.change(teamId, channels, fn);
          },
          blocked: (now) => a.pace.blocked(now),
          sweep: (now) => a.pace.sweep(now),
          settle: (teamIds, options) => a.pace.settle(teamIds, options),
        };
        let clock = 0;
        const pa = new SharedPace(counted, new ChannelPacer(), { headroom: 1, clock: () => clock });
        await pa.take('T1', ['U1', 'U2'], 1_000);
        pa.answered('T1', 'U1', 1_000, 1_050);
        clock = 200;
        pa.answered('T1', 'U2', 1_000, 1_060);
        // Changed here 200 ms ago: the next take is coming, the answers wait for it.
        await pa.flushQuiet(clock);
        expect(changes).toBe(1);
        await pa.take('T1', ['U3'], 1_100);
        expect(changes).toBe(2);
        const runOf = (store: Store) =>
          store.pace.change('T1', [], (s) => ({ result: s.run?.count, blockedUntil: 0 }));
        expect(await runOf(a)).toBe(2);
        // Gone quiet (no change here for 250 ms): written on their own, and the team settled
        // (another instance sees them).
        pa.answered('T1', 'U3', 1_100, 1_150);
        clock = 450;
        await pa.flushQuiet(clock);
        expect(changes).toBe(3);
        expect(await runOf(b)).toBe(3);
        // Each change carries what waits: none waits past 250 ms after the last one.
        pa.answered('T1', 'U4', 1_200, 1_250);
        clock = 600;
        await pa.take('T1', ['U5'], 1_300);
        pa.answered('T1', 'U5', 1_300, 1_350);
        clock = 849;
        await pa.flushQuiet(clock);
        expect(changes).toBe(4);
        clock = 850;
        await pa.flushQuiet(clock);
        expect(changes).toBe(5);
        expect(await runOf(b)).toBe(5);
      });

      it('keeps a quiet team that waits for its own pace or has sends in flight here, written back, and lets it go after', async () => {
        const base = Date.now();
        let clock = base;
        let busy = false;
        const pa = new SharedPace(a.pace, new ChannelPacer(), {
          headroom: 1,
          clock: () => clock,
          busy: () => busy,
        });
        // 50 accepted, then two refusals: the team's limit, paused for a second.
        for (let i = 0; i < 50; i++) {
          const at = base - 1_000 + i * 10;
          pa.answered('T1', `U${i}`, at, at + 5);
        }
        await pa.refused('T1', 'U_X', 1_000, base, base - 10);
        expect(await pa.refused('T1', 'U_Y', 1_000, base + 5, base - 5)).toBe('team');
        const pausedUntil = base + 1_005;
        const seen = () =>
          b.pace.blocked(clock).then((rows) => rows.find((r) => r.teamId === 'T1'));
        // Quiet, but waiting for its pause: written back (the other instance sees the pause),
        // and on PostgreSQL still held here — the other is told it may not send before then.
        clock = base + 300;
        await pa.flushQuiet(clock);
        expect((await seen())?.until).toBeGreaterThanOrEqual(pausedUntil);
        const told = await b.pace.change('T1', [], (s) => ({
          result: s.pausedUntil,
          blockedUntil: 0,
        }));
        if (engine.name === 'SQLite') expect(told).toBe(pausedUntil);
        else expect(told).toBeGreaterThan(pausedUntil);
        // The wait is over and it stayed quiet: let go; the other takes it with the pace learned.
        clock = pausedUntil + 300;
        await pa.flushQuiet(clock);
        expect(await seen()).toBeUndefined();
        const state = await new SharedPace(b.pace, new ChannelPacer(), { headroom: 1 }).state(
          'T1',
          clock,
        );
        expect(1_000 / state.intervalMs!).toBeCloseTo(50, 0);

        // A send in flight here (its answer not back): kept while it is, let go after.
        expect(await pa.begin('T1', 'U_Z', clock)).toBeUndefined();
        busy = true;
        clock += 300;
        await pa.flushQuiet(clock);
        if (engine.name === 'PostgreSQL') expect(await seen()).toBeDefined();
        busy = false;
        await pa.flushQuiet(clock);
        expect(await seen()).toBeUndefined();
      });

      it('keeps a pace of fractional milliseconds in whole ones', async () => {
        const pa = new SharedPace(a.pace, new ChannelPacer(), { headroom: 0.97 });
        for (let i = 0; i < 50; i++) pa.answered('T1', `U${i}`, i * 10, i * 10 + 5);
        await pa.refused('T1', 'U_X', 1_000, 510, 500);
        expect(await pa.refused('T1', 'U_Y', 1_000, 520, 505)).toBe('team');
        expect(await pa.begin('T1', 'U_Z', 1_520)).toBeUndefined();
        const next = await pa.begin('T1', 'U_W', 1_521);
        expect(next?.scope).toBe('team');
        expect(Number.isInteger(next?.at)).toBe(true);
        const { nextReadyAt } = await pa.blocked(1_521);
        expect(Number.isInteger(nextReadyAt)).toBe(true);
      });

      it('forgets idle channels and teams', async () => {
        const pa = paceOf(a);
        await pa.begin('T1', 'U_BOB', 1_000);
        await pa.limited('T2', 1_000, 1_000);
        await pa.flush();
        // The channel's row and T2's (PostgreSQL also keeps an empty row for T1).
        expect(await b.pace.sweep(5_000_000)).toBeGreaterThanOrEqual(2);
        expect(await b.pace.sweep(5_000_000)).toBe(0);
        // Forgotten: the channel is free again even at a time before its old next moment.
        expect(await pa.begin('T1', 'U_BOB', 1_100)).toBeUndefined();
      });
    });
  });
}
