/**
 * The notification tables on a real SQLite file: the outbox's unique key and take-over
 * rule, leases and reconciling flags, per-team due lists, summaries; the seen-events
 * dedupe; user links; the lookup cache's expiry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lookupCacheStore } from '../../src/store/lookup-cache.js';
import { migrations } from '../../src/store/migrations.js';
import {
  NO_SLACK_ACCOUNT,
  type OutboxStore,
  outboxStore,
  seenEventsStore,
} from '../../src/store/outbox.js';
import { userLinksStore } from '../../src/store/user-links.js';
import { matchedRow, type TempStore, tempStore } from '../support/notify-rows.js';

let tmp: TempStore;
let outbox: OutboxStore;
beforeEach(() => {
  tmp = tempStore();
  outbox = outboxStore(tmp.store.db);
});
afterEach(() => tmp.remove());

describe('outbox', () => {
  it('is created by the appended migration', () => {
    expect(tmp.store.db.pragma('user_version', { simple: true })).toBe(migrations.length);
    const tables = tmp.store.db
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

  it('keeps one row per (team, task, service user), however often it is queued', () => {
    const row = matchedRow('T1', 'U_BOB');
    const [first] = outbox.enqueue([row], 'slack');
    const [again] = outbox.enqueue([row], 'ignore');
    const [slackAgain] = outbox.enqueue([{ ...row, source: 'slack' }], 'slack');
    expect(again.id).toBe(first.id);
    expect(slackAgain.id).toBe(first.id);
    expect(outbox.counts().pending).toBe(1);
    // The same task in another team is another row.
    const [other] = outbox.enqueue([{ ...row, teamId: 'T2' }], 'ignore');
    expect(other.id).not.toBe(first.id);
    expect(first.marker).toMatch(/^[0-9a-f]{24}$/);
    expect(other.marker).not.toBe(first.marker);
  });

  it('lets the Slack path take over an event row nobody has started, and nothing else', () => {
    const base = matchedRow('T1', 'U_ALICE', { slackUserId: undefined, source: 'event' });
    const [eventRow] = outbox.enqueue(
      [{ ...base, status: 'skipped', actorServiceUserId: 'svc_U_ALICE' }],
      'ignore',
    );
    expect(eventRow.status).toBe('skipped');
    const [taken] = outbox.enqueue(
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
    const [busy] = outbox.enqueue([matchedRow('T1', 'U_CAROL', { source: 'event' })], 'ignore');
    outbox.claim(busy.id, Date.now(), 60_000);
    const [after] = outbox.enqueue(
      [{ ...matchedRow('T1', 'U_CAROL'), taskId: busy.taskId, actorSlackUserId: 'U_CAROL' }],
      'slack',
    );
    expect(after).toMatchObject({ status: 'sending', source: 'event' });
    expect(after.actorSlackUserId).toBeUndefined();
  });

  it('claims a due row once, and a row left in sending only after its lease, as uncertain', () => {
    const [row] = outbox.enqueue([matchedRow('T1', 'U_BOB')], 'slack', 1_000);
    expect(outbox.claim(row.id, 999, 5_000)).toBeUndefined(); // not due yet
    const claimed = outbox.claim(row.id, 1_000, 5_000)!;
    expect(claimed).toMatchObject({ status: 'sending', attempts: 1, uncertain: false });
    expect(claimed.claimedUntil).toBe(6_000);
    expect(outbox.claim(row.id, 2_000, 5_000)).toBeUndefined(); // someone holds it
    expect(outbox.due(5_999, 10)).toEqual([]);
    expect(outbox.due(6_000, 10)).toEqual([{ id: row.id, teamId: 'T1', slackUserId: 'U_BOB' }]);
    const reclaimed = outbox.claim(row.id, 6_000, 5_000)!;
    expect(reclaimed).toMatchObject({ status: 'sending', attempts: 2, uncertain: true });
  });

  it('lists due rows oldest first, leaving out paused teams', () => {
    const rows = outbox.enqueue(
      [
        matchedRow('T1', 'U_A', { notBefore: 30 }),
        matchedRow('T2', 'U_B', { notBefore: 10 }),
        matchedRow('T1', 'U_C', { notBefore: 20 }),
        matchedRow('T3', 'U_D', { notBefore: 99 }),
      ],
      'slack',
    );
    expect(outbox.due(50, 10).map((r) => r.id)).toEqual([rows[1].id, rows[2].id, rows[0].id]);
    expect(outbox.due(50, 10, ['T1']).map((r) => r.id)).toEqual([rows[1].id]);
    expect(outbox.due(50, 1).map((r) => r.id)).toEqual([rows[1].id]);
    expect(outbox.nextDueAt()).toBe(10);
    expect(outbox.nextDueAt(['T1', 'T2'])).toBe(99);
  });

  it('reads pending rows by team and due time from an index, never walking the backlog', () => {
    // Every statement due() and nextDueAt() run, recorded with its arguments.
    const db = tmp.store.db;
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

  it('moves rows to later due times, and puts a claimed row back without counting the try', () => {
    const rows = outbox.enqueue(
      [matchedRow('T1', 'U_A', { notBefore: 0 }), matchedRow('T1', 'U_A', { notBefore: 0 })],
      'slack',
      0,
    );
    outbox.defer([{ id: rows[0].id, at: 3_000 }], 100);
    expect(outbox.due(2_999, 10).map((r) => r.id)).toEqual([rows[1].id]);
    expect(outbox.due(3_000, 10).map((r) => r.id)).toEqual([rows[1].id, rows[0].id]);
    outbox.claim(rows[1].id, 3_000, 1_000);
    outbox.requeue(rows[1].id, 4_000, 3_000);
    expect(outbox.get(rows[1].id)).toMatchObject({
      status: 'pending',
      nextAttemptAt: 4_000,
      attempts: 0,
    });
  });

  it('reschedules with the reason, keeps "uncertain" once set, and refunds 429s', () => {
    const [row] = outbox.enqueue([matchedRow('T1', 'U_BOB')], 'slack', 0);
    outbox.claim(row.id, 0, 1_000);
    outbox.reschedule(row.id, 500, 'timed out', true, 0);
    expect(outbox.get(row.id)).toMatchObject({
      status: 'pending',
      nextAttemptAt: 500,
      lastError: 'timed out',
      uncertain: true,
      attempts: 1,
    });
    outbox.claim(row.id, 500, 1_000);
    outbox.reschedule(row.id, 900, 'rate limited', false, 500, true);
    expect(outbox.get(row.id)).toMatchObject({ uncertain: true, attempts: 1 });
    outbox.claim(row.id, 900, 1_000);
    outbox.markSent(row.id, { ts: '1.000001', channel: 'DBOB' });
    expect(outbox.get(row.id)).toMatchObject({
      status: 'sent',
      messageTs: '1.000001',
      dmChannel: 'DBOB',
      uncertain: false,
    });
    expect(outbox.get(row.id)?.sentAt).toBeTruthy();
  });

  it('holds a row until released', () => {
    const [row] = outbox.enqueue([matchedRow('T1', 'U_BOB', { notBefore: 10_000 })], 'slack', 0);
    expect(outbox.due(5_000, 10)).toEqual([]);
    outbox.release(row.id, 5_000);
    expect(outbox.due(5_000, 10)).toHaveLength(1);
  });

  it('summarises a team: counts by status and the latest failures', () => {
    const rows = outbox.enqueue(
      [
        matchedRow('T1', 'U_A'),
        matchedRow('T1', 'U_B'),
        matchedRow('T1', 'U_C'),
        matchedRow('T1', 'U_D'),
        matchedRow('T2', 'U_E'),
      ],
      'slack',
    );
    outbox.markFailed(rows[0].id, NO_SLACK_ACCOUNT, 1_000);
    outbox.markFailed(rows[1].id, 'user_not_found', 2_000);
    outbox.markSent(rows[2].id, { ts: '1.1' });
    const s = outbox.summary('T1');
    expect(s).toMatchObject({ pending: 1, sending: 0, sent: 1, failed: 2, skipped: 0 });
    expect(s.recentFailures.map((r) => r.lastError)).toEqual(['user_not_found', NO_SLACK_ACCOUNT]);
    expect(outbox.summary('T1', 1).recentFailures).toHaveLength(1);
    expect(outbox.summary('T2').pending).toBe(1);
  });

  it('fills in matching results and keeps e-mails lower-case', () => {
    const [row] = outbox.enqueue(
      [matchedRow('T1', 'U_A', { slackUserId: undefined, serviceUserEmail: 'Bob@Example.com' })],
      'ignore',
    );
    expect(row.serviceUserEmail).toBe('bob@example.com');
    outbox.update(row.id, { slackUserId: 'U_BOB', projectName: 'Website', creatorLabel: '<@U_X>' });
    expect(outbox.get(row.id)).toMatchObject({
      slackUserId: 'U_BOB',
      projectName: 'Website',
      creatorLabel: '<@U_X>',
    });
  });
});

describe('seen events', () => {
  it('accepts an id once, and forgets old ids', () => {
    const seen = seenEventsStore(tmp.store.db);
    expect(seen.markSeen('ev1', 1_000)).toBe(true);
    expect(seen.markSeen('ev1', 2_000)).toBe(false);
    expect(seen.markSeen('ev2', 5_000)).toBe(true);
    expect(seen.prune(2_000, 5_000)).toBe(1);
    expect(seen.markSeen('ev1', 6_000)).toBe(true);
    expect(seen.markSeen('ev2', 6_000)).toBe(false);
  });
});

describe('user links', () => {
  it('links an e-mail (case-insensitively) to one Slack user, relinks and unlinks', () => {
    const links = userLinksStore(tmp.store.db);
    expect(
      links.link({ teamId: 'T1', serviceEmail: 'Bob@X.com', slackUserId: 'U1', linkedBy: 'UA' }),
    ).toBeUndefined();
    expect(links.byEmail('T1', 'bob@x.com')?.slackUserId).toBe('U1');
    expect(links.byEmail('T2', 'bob@x.com')).toBeUndefined();
    expect(
      links.link({ teamId: 'T1', serviceEmail: 'bob@x.com', slackUserId: 'U2', linkedBy: 'UA' }),
    ).toBe('U1');
    links.link({ teamId: 'T1', serviceEmail: 'b2@x.com', slackUserId: 'U2', linkedBy: 'UA' });
    expect(
      links
        .bySlackUser('T1', 'U2')
        .map((l) => l.serviceEmail)
        .sort(),
    ).toEqual(['b2@x.com', 'bob@x.com']);
    expect(links.unlinkSlackUser('T1', 'U2').sort()).toEqual(['b2@x.com', 'bob@x.com']);
    expect(links.byEmail('T1', 'bob@x.com')).toBeUndefined();
  });
});

describe('lookup cache', () => {
  it('answers until the entry expires, hits and misses alike', () => {
    const cache = lookupCacheStore(tmp.store.db);
    cache.put('T1', 'Bob@X.com', 'U_BOB', 1_000, 0);
    cache.put('T1', 'nobody@x.com', undefined, 500, 0);
    expect(cache.get('T1', 'bob@x.com', 999)).toEqual({ slackUserId: 'U_BOB', expiresAt: 1_000 });
    expect(cache.get('T1', 'bob@x.com', 1_000)).toBeUndefined();
    expect(cache.get('T1', 'nobody@x.com', 100)).toEqual({ expiresAt: 500 });
    expect(cache.get('T1', 'nobody@x.com', 600)).toBeUndefined();
    expect(cache.get('T2', 'bob@x.com', 0)).toBeUndefined();
    expect(cache.clear('T1')).toBe(2);
  });
});
