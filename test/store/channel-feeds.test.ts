/**
 * channel_feeds and feed_posts on both engines: a feed follows its channel's project link;
 * claims make a task post once per channel and apply the burst rule (5 cards a minute, then
 * one summary per minute that gathers the rest); only posted cards in channels whose feed is
 * on are threads; forgetting a team forgets its feeds. On PostgreSQL, claims from several
 * instances at once still give each task one place and at most 5 cards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/store/crypto.js';
import type { Store } from '../../src/store/index.js';
import { openPgStore } from '../../src/store/pg/index.js';
import { usePostgres } from '../support/postgres.js';
import { engineWanted, storeEngines } from '../support/store-engines.js';

const RULE = { windowMs: 60_000, cards: 5 };
const T0 = 1_800_000_000_000;

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await (await engine.fresh()).open();
      await store.channelProjects.link('T1', 'C1', 'p1', 'U1');
      await store.channelProjects.link('T1', 'C2', 'p1', 'U1');
      await store.channelProjects.link('T1', 'C3', 'p2', 'U1');
    });

    it('turns feeds on and off; a feed belongs to its channel’s current project', async () => {
      const feeds = store.channelFeeds;
      await feeds.enable('T1', 'C1', false, 'U1', 5);
      await feeds.enable('T1', 'C2', true, 'U2', 6);
      await feeds.enable('T1', 'C3', false, 'U1', 7);
      expect(await feeds.get('T1', 'C2')).toEqual({
        teamId: 'T1',
        channelId: 'C2',
        sync: true,
        enabledBy: 'U2',
        enabledAt: 6,
        events: ['created', 'done', 'comments'],
        filters: {},
      });
      expect((await feeds.forProject('T1', 'p1')).map((f) => f.channelId)).toEqual(['C1', 'C2']);
      await store.channelProjects.link('T1', 'C2', 'p2', 'U1');
      expect((await feeds.forProject('T1', 'p1')).map((f) => f.channelId)).toEqual(['C1']);
      await feeds.enable('T1', 'C1', true, 'U3', 8);
      expect((await feeds.get('T1', 'C1'))?.sync).toBe(true);
      expect(await feeds.disable('T1', 'C1')).toBe(true);
      expect(await feeds.disable('T1', 'C1')).toBe(false);
      expect(await feeds.forProject('T1', 'p1')).toEqual([]);
    });

    it('claims: each task once; 5 cards a minute, then one summary gathering the rest', async () => {
      const feeds = store.channelFeeds;
      await feeds.enable('T1', 'C1', false, 'U1');
      const claims = [];
      for (let i = 1; i <= 8; i++)
        claims.push(await feeds.claim('T1', 'C1', `k${i}`, T0 + i, RULE));
      expect(claims.slice(0, 5)).toEqual(Array(5).fill({ kind: 'card' }));
      expect(claims[5]).toEqual({ kind: 'summary', summaryTs: undefined, taskIds: ['k6'] });
      // Not posted yet: the next ones still list k6 with them.
      expect(claims[6]).toEqual({ kind: 'summary', summaryTs: undefined, taskIds: ['k6', 'k7'] });
      await feeds.summaryPosted('T1', 'C1', '9.1', ['k6', 'k7', 'k8']);
      expect(await feeds.claim('T1', 'C1', 'k9', T0 + 9, RULE)).toEqual({
        kind: 'summary',
        summaryTs: '9.1',
        taskIds: ['k6', 'k7', 'k8', 'k9'],
      });
      expect(await feeds.claim('T1', 'C1', 'k3', T0 + 10, RULE)).toEqual({ kind: 'taken' });
      // Another channel counts its own.
      expect(await feeds.claim('T1', 'C2', 'k9', T0 + 11, RULE)).toEqual({ kind: 'card' });

      // Still busy a minute after the summary began: a new summary, not the old one.
      const later = T0 + 61_000;
      for (let i = 10; i <= 14; i++) await feeds.claim('T1', 'C1', `k${i}`, later + i, RULE);
      expect(await feeds.claim('T1', 'C1', 'k15', later + 15, RULE)).toEqual({
        kind: 'summary',
        summaryTs: undefined,
        taskIds: ['k15'],
      });
      // Quiet for a minute: cards again.
      expect(await feeds.claim('T1', 'C1', 'k16', later + 120_000, RULE)).toEqual({ kind: 'card' });
    });

    it('threads are posted cards in channels whose feed is on; released claims go', async () => {
      const feeds = store.channelFeeds;
      await feeds.enable('T1', 'C1', true, 'U1');
      await feeds.enable('T1', 'C2', false, 'U1');
      await feeds.claim('T1', 'C1', 'k1', T0, RULE);
      await feeds.claim('T1', 'C2', 'k1', T0, RULE);
      expect(await feeds.cardsOf('T1', 'k1')).toEqual([]);
      await feeds.cardPosted('T1', 'C1', 'k1', '1.1');
      await feeds.cardPosted('T1', 'C2', 'k1', '2.2');
      expect(await feeds.cardsOf('T1', 'k1')).toEqual([
        { channelId: 'C1', ts: '1.1', sync: true },
        { channelId: 'C2', ts: '2.2', sync: false },
      ]);
      expect(await feeds.taskOfCard('T1', 'C1', '1.1')).toEqual({ taskId: 'k1', sync: true });
      expect(await feeds.taskOfCard('T1', 'C1', '2.2')).toBeUndefined();
      await feeds.disable('T1', 'C2');
      expect(await feeds.taskOfCard('T1', 'C2', '2.2')).toBeUndefined();
      expect((await feeds.cardsOf('T1', 'k1')).map((c) => c.channelId)).toEqual(['C1']);
      await feeds.claim('T1', 'C1', 'k2', T0, RULE);
      await feeds.release('T1', 'C1', 'k2');
      expect(await feeds.claim('T1', 'C1', 'k2', T0, RULE)).toEqual({ kind: 'card' });
    });

    it('forgetting a team forgets its feeds and posts', async () => {
      await store.channelFeeds.enable('T1', 'C1', true, 'U1');
      await store.channelFeeds.enable('T2', 'C1', true, 'U1');
      await store.channelFeeds.claim('T1', 'C1', 'k1', T0, RULE);
      await store.forgetTeam('T1');
      expect(await store.channelFeeds.get('T1', 'C1')).toBeUndefined();
      expect(await store.channelFeeds.claim('T1', 'C1', 'k1', T0, RULE)).toEqual({ kind: 'card' });
      expect(await store.channelFeeds.get('T2', 'C1')).toBeDefined();
    });
  });
}

// PostgreSQL only: runs where it is wanted (the postgres tier; all of `npm test`).
describe.runIf(engineWanted('PostgreSQL'))('several instances on one PostgreSQL database', () => {
  const postgres = usePostgres();
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  it('claim one channel’s burst at once: each task one place, 5 cards, one summary', async () => {
    const url = await postgres.freshDatabase();
    const secrets = createSecretBox(randomBytes(32));
    const dataDir = mkdtempSync(join(tmpdir(), 'worklink-feeds-'));
    const stores = await Promise.all(
      [0, 1, 2].map(() => openPgStore({ url, dataDir, secrets, poolSize: 4 })),
    );
    opened.push(...stores);
    await stores[0]!.channelProjects.link('T1', 'C1', 'p1', 'U1');
    await stores[0]!.channelFeeds.enable('T1', 'C1', false, 'U1');
    const tasks = Array.from({ length: 12 }, (_, i) => `k${i}`);
    // Every task claimed by every instance, all at once.
    const claims = await Promise.all(
      tasks.flatMap((t, i) => stores.map((s) => s.channelFeeds.claim('T1', 'C1', t, T0 + i, RULE))),
    );
    expect(claims.filter((c) => c.kind === 'card')).toHaveLength(5);
    expect(claims.filter((c) => c.kind === 'summary')).toHaveLength(7);
    expect(claims.filter((c) => c.kind === 'taken')).toHaveLength(24);
  });
});
