/**
 * The notification tables on both engines (SQLite files, a real PostgreSQL server): the
 * outbox's unique key and take-over rule, leases and reconciling flags, per-team due lists,
 * summaries; the seen-events dedupe; user links; the lookup cache's expiry. How SQLite
 * reads the due rows (its query plans) is checked on SQLite.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { NO_SLACK_ACCOUNT, type OutboxStore } from '../../src/store/index.js';
import { migrations } from '../../src/store/migrations.js';
import { outboxStore } from '../../src/store/tables/outbox/sqlite.js';
import { matchedRow, type TempStore, tempStore } from '../support/notify-rows.js';
import { sqliteHandle } from '../support/sqlite-handle.js';
import { storeEngines } from '../support/store-engines.js';

describe('outbox on SQLite', () => {
  let tmp: TempStore;
  beforeEach(() => {
    tmp = tempStore();
  });
  afterEach(() => tmp.remove());

  it('is created by the appended migration', () => {
    expect(sqliteHandle(tmp.store).pragma('user_version', { simple: true })).toBe(
      migrations.length,
    );
    const tables = sqliteHandle(tmp.store)
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'notify_outbox',
        'notify_user_links',
        'notify_lookup_cache',
        'notify_seen_events',
      ]),
    );
  });

  it('reads pending rows by team and due time from an index, never walking the backlog', () => {
    // Every statement due() and nextDueAt() run, recorded with its arguments.
    const db = sqliteHandle(tmp.store);
    const ran: { source: string; args: unknown[] }[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((source: string) => {
      const stmt = prepare(source);
      for (const method of ['all', 'get', 'run'] as const) {
        const original = stmt[method].bind(stmt) as (...args: unknown[]) => unknown;
        (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
          ran.push({ source, args });
          return original(...args);
        };
      }
      return stmt;
    }) as typeof db.prepare;
    const store = outboxStore(db);
    db.prepare = prepare;
    // A paused team with a backlog, and another team with one row.
    store.enqueue(
      Array.from({ length: 200 }, (_, i) => matchedRow('T_BUSY', `U_${i}`, { notBefore: 10 })),
      'slack',
    );
    store.enqueue([matchedRow('T_OTHER', 'U_X', { notBefore: 20 })], 'slack');
    db.exec('ANALYZE');
    expect(store.due(50, 10, ['T_BUSY']).map((r) => r.teamId)).toEqual(['T_OTHER']);
    expect(store.nextDueAt(['T_BUSY'])).toBe(20);

    expect(ran.length).toBeGreaterThan(0);
    for (const { source, args } of ran) {
      const plan = db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${source}`)
        .all(...args)
        .map((r) => r.detail);
      expect(plan.join('\n'), source).not.toMatch(/SCAN notify_outbox|TEMP B-TREE/);
      // Pending rows are reached through (status, team) — not every pending row of every team.
      if (source.includes("status = 'pending'")) {
        for (const step of plan.filter((d) => d.includes('notify_outbox'))) {
          expect(step, source).toMatch(/USING (COVERING )?INDEX \S+ \(status=\? AND team_id[=>]\?/);
        }
      }
    }
  });
});

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    // Closed by storeEngines after each test.
    let store: Store;
    let outbox: OutboxStore;
    beforeEach(async () => {
      store = await (await engine.fresh()).open();
      outbox = store.outbox;
    });

    describe('outbox', () => {
      it('keeps one row per (team, task, service user), however often it is queued', async () => {
        const row = matchedRow('T1', 'U_BOB');
        const [first] = await outbox.enqueue([row], 'slack');
        const [again] = await outbox.enqueue([row], 'ignore');
        const [slackAgain] = await outbox.enqueue([{ ...row, source: 'slack' }], 'slack');
        expect(again.id).toBe(first.id);
        expect(slackAgain.id).toBe(first.id);
        expect((await outbox.counts()).pending).toBe(1);
        // The same task in another team is another row.
        const [other] = await outbox.enqueue([{ ...row, teamId: 'T2' }], 'ignore');
        expect(other.id).not.toBe(first.id);
        expect(first.marker).toMatch(/^[0-9a-f]{24}$/);
        expect(other.marker).not.toBe(first.marker);
      });

      it('lets the Slack path take over an event row nobody has started, and nothing else', async () => {
        const base = matchedRow('T1', 'U_ALICE', { slackUserId: undefined, source: 'event' });
        const [eventRow] = await outbox.enqueue(
          [{ ...base, status: 'skipped', actorServiceUserId: 'svc_U_ALICE' }],
          'ignore',
        );
        expect(eventRow.status).toBe('skipped');
        const [taken] = await outbox.enqueue(
          [{ ...base, source: 'slack', actorSlackUserId: 'U_BOB', status: 'pending' }],
          'slack',
        );
        expect(taken).toMatchObject({
          id: eventRow.id,
          source: 'slack',
          status: 'pending',
          actorSlackUserId: 'U_BOB',
          marker: eventRow.marker,
        });

        // A row already being sent (or sent) stays as it is.
        const [busy] = await outbox.enqueue(
          [matchedRow('T1', 'U_CAROL', { source: 'event' })],
          'ignore',
        );
        await outbox.claim(busy.id, Date.now(), 60_000);
        const [after] = await outbox.enqueue(
          [{ ...matchedRow('T1', 'U_CAROL'), taskId: busy.taskId, actorSlackUserId: 'U_CAROL' }],
          'slack',
        );
        expect(after).toMatchObject({ status: 'sending', source: 'event' });
        expect(after.actorSlackUserId).toBeUndefined();
      });

      it('claims a due row once, and a row left in sending only after its lease, as uncertain', async () => {
        const [row] = await outbox.enqueue([matchedRow('T1', 'U_BOB')], 'slack', 1_000);
        expect(await outbox.claim(row.id, 999, 5_000)).toBeUndefined(); // not due yet
        const claimed = (await outbox.claim(row.id, 1_000, 5_000))!;
        expect(claimed).toMatchObject({ status: 'sending', attempts: 1, uncertain: false });
        expect(claimed.claimedUntil).toBe(6_000);
        expect(await outbox.claim(row.id, 2_000, 5_000)).toBeUndefined(); // someone holds it
        expect(await outbox.due(5_999, 10)).toEqual([]);
        expect(await outbox.due(6_000, 10)).toEqual([
          { id: row.id, teamId: 'T1', slackUserId: 'U_BOB' },
        ]);
        const reclaimed = (await outbox.claim(row.id, 6_000, 5_000))!;
        expect(reclaimed).toMatchObject({ status: 'sending', attempts: 2, uncertain: true });
      });

      it('lists due rows oldest first, leaving out paused teams', async () => {
        const rows = await outbox.enqueue(
          [
            matchedRow('T1', 'U_A', { notBefore: 30 }),
            matchedRow('T2', 'U_B', { notBefore: 10 }),
            matchedRow('T1', 'U_C', { notBefore: 20 }),
            matchedRow('T3', 'U_D', { notBefore: 99 }),
          ],
          'slack',
        );
        expect((await outbox.due(50, 10)).map((r) => r.id)).toEqual([
          rows[1].id,
          rows[2].id,
          rows[0].id,
        ]);
        expect((await outbox.due(50, 10, ['T1'])).map((r) => r.id)).toEqual([rows[1].id]);
        expect((await outbox.due(50, 1)).map((r) => r.id)).toEqual([rows[1].id]);
        expect(await outbox.nextDueAt()).toBe(10);
        expect(await outbox.nextDueAt(['T1', 'T2'])).toBe(99);
      });

      it('moves rows to later due times, and puts a claimed row back without counting the try', async () => {
        const rows = await outbox.enqueue(
          [matchedRow('T1', 'U_A', { notBefore: 0 }), matchedRow('T1', 'U_A', { notBefore: 0 })],
          'slack',
          0,
        );
        await outbox.defer([{ id: rows[0].id, at: 3_000 }], 100);
        expect((await outbox.due(2_999, 10)).map((r) => r.id)).toEqual([rows[1].id]);
        expect((await outbox.due(3_000, 10)).map((r) => r.id)).toEqual([rows[1].id, rows[0].id]);
        await outbox.claim(rows[1].id, 3_000, 1_000);
        await outbox.requeue(rows[1].id, 4_000, 3_000);
        expect(await outbox.get(rows[1].id)).toMatchObject({
          status: 'pending',
          nextAttemptAt: 4_000,
          attempts: 0,
        });
      });

      it('reschedules with the reason, keeps "uncertain" once set, and refunds 429s', async () => {
        const [row] = await outbox.enqueue([matchedRow('T1', 'U_BOB')], 'slack', 0);
        await outbox.claim(row.id, 0, 1_000);
        await outbox.reschedule(row.id, 500, 'timed out', true, 0);
        expect(await outbox.get(row.id)).toMatchObject({
          status: 'pending',
          nextAttemptAt: 500,
          lastError: 'timed out',
          uncertain: true,
          attempts: 1,
        });
        await outbox.claim(row.id, 500, 1_000);
        await outbox.reschedule(row.id, 900, 'rate limited', false, 500, true);
        expect(await outbox.get(row.id)).toMatchObject({ uncertain: true, attempts: 1 });
        await outbox.claim(row.id, 900, 1_000);
        await outbox.markSent(row.id, { ts: '1.000001', channel: 'DBOB' });
        expect(await outbox.get(row.id)).toMatchObject({
          status: 'sent',
          messageTs: '1.000001',
          dmChannel: 'DBOB',
          uncertain: false,
        });
        expect((await outbox.get(row.id))?.sentAt).toBeTruthy();
      });

      it('holds a row until released', async () => {
        const [row] = await outbox.enqueue(
          [matchedRow('T1', 'U_BOB', { notBefore: 10_000 })],
          'slack',
          0,
        );
        expect(await outbox.due(5_000, 10)).toEqual([]);
        await outbox.release(row.id, 5_000);
        expect(await outbox.due(5_000, 10)).toHaveLength(1);
      });

      it('summarises a team: counts by status and the latest failures', async () => {
        const rows = await outbox.enqueue(
          [
            matchedRow('T1', 'U_A'),
            matchedRow('T1', 'U_B'),
            matchedRow('T1', 'U_C'),
            matchedRow('T1', 'U_D'),
            matchedRow('T2', 'U_E'),
          ],
          'slack',
        );
        await outbox.markFailed(rows[0].id, NO_SLACK_ACCOUNT, 1_000);
        await outbox.markFailed(rows[1].id, 'user_not_found', 2_000);
        await outbox.markSent(rows[2].id, { ts: '1.1' });
        const s = await outbox.summary('T1');
        expect(s).toMatchObject({ pending: 1, sending: 0, sent: 1, failed: 2, skipped: 0 });
        expect(s.recentFailures.map((r) => r.lastError)).toEqual([
          'user_not_found',
          NO_SLACK_ACCOUNT,
        ]);
        expect((await outbox.summary('T1', 1)).recentFailures).toHaveLength(1);
        expect((await outbox.summary('T2')).pending).toBe(1);
      });

      it('fills in matching results and keeps e-mails lower-case', async () => {
        const [row] = await outbox.enqueue(
          [
            matchedRow('T1', 'U_A', {
              slackUserId: undefined,
              serviceUserEmail: 'Bob@Example.com',
            }),
          ],
          'ignore',
        );
        expect(row.serviceUserEmail).toBe('bob@example.com');
        await outbox.update(row.id, {
          slackUserId: 'U_BOB',
          projectName: 'Website',
          creatorLabel: '<@U_X>',
        });
        expect(await outbox.get(row.id)).toMatchObject({
          slackUserId: 'U_BOB',
          projectName: 'Website',
          creatorLabel: '<@U_X>',
        });
      });
    });

    describe('seen events', () => {
      it('accepts an id once, and forgets old ids', async () => {
        const seen = store.seenEvents;
        expect(await seen.markSeen('ev1', 1_000)).toBe(true);
        expect(await seen.markSeen('ev1', 2_000)).toBe(false);
        expect(await seen.markSeen('ev2', 5_000)).toBe(true);
        expect(await seen.prune(2_000, 5_000)).toBe(1);
        expect(await seen.markSeen('ev1', 6_000)).toBe(true);
        expect(await seen.markSeen('ev2', 6_000)).toBe(false);
      });
    });

    describe('user links', () => {
      it('links an e-mail (case-insensitively) to one Slack user, relinks and unlinks', async () => {
        const links = store.userLinks;
        expect(
          await links.link({
            teamId: 'T1',
            serviceEmail: 'Bob@X.com',
            slackUserId: 'U1',
            linkedBy: 'UA',
          }),
        ).toBeUndefined();
        expect((await links.byEmail('T1', 'bob@x.com'))?.slackUserId).toBe('U1');
        expect(await links.byEmail('T2', 'bob@x.com')).toBeUndefined();
        expect(
          await links.link({
            teamId: 'T1',
            serviceEmail: 'bob@x.com',
            slackUserId: 'U2',
            linkedBy: 'UA',
          }),
        ).toBe('U1');
        await links.link({
          teamId: 'T1',
          serviceEmail: 'b2@x.com',
          slackUserId: 'U2',
          linkedBy: 'UA',
        });
        expect((await links.bySlackUser('T1', 'U2')).map((l) => l.serviceEmail).sort()).toEqual([
          'b2@x.com',
          'bob@x.com',
        ]);
        expect((await links.unlinkSlackUser('T1', 'U2')).sort()).toEqual(['b2@x.com', 'bob@x.com']);
        expect(await links.byEmail('T1', 'bob@x.com')).toBeUndefined();
      });
    });

    describe('lookup cache', () => {
      it('answers until the entry expires, hits and misses alike', async () => {
        const cache = store.lookups;
        await cache.put('T1', 'Bob@X.com', 'U_BOB', 1_000, 0);
        await cache.put('T1', 'nobody@x.com', undefined, 500, 0);
        expect(await cache.get('T1', 'bob@x.com', 999)).toEqual({
          slackUserId: 'U_BOB',
          expiresAt: 1_000,
        });
        expect(await cache.get('T1', 'bob@x.com', 1_000)).toBeUndefined();
        expect(await cache.get('T1', 'nobody@x.com', 100)).toEqual({ expiresAt: 500 });
        expect(await cache.get('T1', 'nobody@x.com', 600)).toBeUndefined();
        expect(await cache.get('T2', 'bob@x.com', 0)).toBeUndefined();
        expect(await cache.clear('T1')).toBe(2);
      });
    });
  });
}
