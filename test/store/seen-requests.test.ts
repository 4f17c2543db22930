/** seen_requests on both engines: a key is taken once while live, again once expired. */
import { describe, expect, it } from 'vitest';
import { storeEngines } from '../support/store-engines.js';

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    it('claims a key once until it expires, and prunes expired keys', async () => {
      const store = await (await engine.fresh()).open();
      const seen = store.seenRequests;
      expect(await seen.claim('sig:a', 2_000, 1_000)).toBe(true);
      expect(await seen.claim('sig:a', 2_500, 1_500)).toBe(false);
      expect(await seen.claim('sig:a', 3_000, 2_000)).toBe(true);
      expect(await seen.claim('sig:b', 1_500, 1_000)).toBe(true);
      expect(await seen.prune(2_600)).toBe(1);
      expect(await seen.claim('sig:a', 4_000, 2_700)).toBe(false);
    });

    it('claims a batch in one write: new and expired keys taken, live ones left, a key twice once', async () => {
      const store = await (await engine.fresh()).open();
      const seen = store.seenRequests;
      await seen.claim('sig:live', 5_000, 1_000);
      await seen.claim('sig:old', 1_500, 1_000);
      const taken = await seen.claimMany(
        [
          { key: 'sig:live', expiresAt: 6_000 },
          { key: 'sig:old', expiresAt: 6_000 },
          { key: 'sig:new', expiresAt: 4_000 },
          { key: 'sig:new', expiresAt: 7_000 },
        ],
        2_000,
      );
      expect(taken).toBe(2);
      expect(await seen.live(2_000)).toEqual([
        { key: 'sig:live', expiresAt: 5_000 },
        { key: 'sig:old', expiresAt: 6_000 },
        { key: 'sig:new', expiresAt: 7_000 },
      ]);
      expect(await seen.claimMany([], 2_000)).toBe(0);
    });

    it('lists the live keys, oldest expiry first, and says whether instances share it', async () => {
      const store = await (await engine.fresh()).open();
      const seen = store.seenRequests;
      await seen.claim('event:b', 9_000, 1_000);
      await seen.claim('sig:a', 5_000, 1_000);
      await seen.claim('sig:gone', 1_500, 1_000);
      expect(await seen.live(2_000)).toEqual([
        { key: 'sig:a', expiresAt: 5_000 },
        { key: 'event:b', expiresAt: 9_000 },
      ]);
      expect(seen.shared).toBe(engine.name === 'PostgreSQL');
    });
  });
}
