/** Where a team's links unfurl (the links issue), on both engines. */
import { describe, expect, it } from 'vitest';
import { storeEngines } from '../support/store-engines.js';

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    it('defaults to everywhere, changes, and goes when Worklink is uninstalled', async () => {
      const store = await (await engine.fresh()).open();
      const s = store.unfurlSettings;
      expect(await s.get('T1')).toBe('everywhere');
      await s.set('T1', 'linked', 'U_ALICE', 10);
      expect(await s.get('T1')).toBe('linked');
      await s.set('T1', 'off', 'U_ALICE', 11);
      expect(await s.get('T1')).toBe('off');
      expect(await s.get('T2')).toBe('everywhere');
      await store.forgetTeam('T1');
      expect(await s.get('T1')).toBe('off');
      await store.forgetUninstalledTeam('T1', 'uninstalled');
      expect(await s.get('T1')).toBe('everywhere');
    });
  });
}
