/**
 * reminders on both engines: added, listed per person soonest first, cancelled only by their
 * person and only while waiting, due ones taken once (markQueued is first-wins), forgotten
 * with the team.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { storeEngines } from '../support/store-engines.js';

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await (await engine.fresh()).open();
    });

    it('keeps, lists, cancels and hands out due reminders once', async () => {
      const r = store.reminders;
      const late = await r.add({ teamId: 'T1', slackUserId: 'U1', taskId: 'k1', dueAt: 3_000 }, 1);
      const soon = await r.add({ teamId: 'T1', slackUserId: 'U1', taskId: 'k2', dueAt: 2_000 }, 1);
      const other = await r.add({ teamId: 'T1', slackUserId: 'U2', taskId: 'k1', dueAt: 1_000 }, 1);
      expect((await r.pending('T1', 'U1')).map((x) => x.id)).toEqual([soon.id, late.id]);
      expect(await r.pending('T1', 'U1')).toContainEqual({
        id: soon.id,
        teamId: 'T1',
        slackUserId: 'U1',
        taskId: 'k2',
        dueAt: 2_000,
        createdAt: 1,
      });
      // Only its person cancels it.
      expect(await r.cancel('T1', 'U2', late.id)).toBe(false);
      expect(await r.cancel('T1', 'U1', late.id)).toBe(true);
      expect(await r.cancel('T1', 'U1', late.id)).toBe(false);
      expect((await r.due(2_500, 10)).map((x) => x.id)).toEqual([other.id, soon.id]);
      expect(await r.markQueued(soon.id, 2_000)).toBe(true);
      expect(await r.markQueued(soon.id, 2_001)).toBe(false);
      expect((await r.due(5_000, 10)).map((x) => x.id)).toEqual([other.id]);
      expect(await r.pending('T1', 'U1')).toEqual([]);
      expect(await r.cancel('T1', 'U1', soon.id)).toBe(false);
      await store.forgetTeam('T1');
      expect(await r.due(5_000, 10)).toEqual([]);
    });
  });
}
