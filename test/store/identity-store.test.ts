/** Personal keys and team settings (the identity issue), on both engines. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DecryptError, type Store } from '../../src/store/index.js';
import { storeEngines } from '../support/store-engines.js';

const key = (slackUserId = 'U_BOB', apiKey = 'wk_personal_bob_0123456789') => ({
  teamId: 'T1',
  slackUserId,
  serviceUserId: `svc-${slackUserId}`,
  apiKey,
  connectedAt: 1_700_000_000_000,
});

const workspace = {
  teamId: 'T1',
  workspaceId: 'ws1',
  workspaceName: 'Acme',
  apiKey: 'wk_workspace',
  connectedBy: 'U_ALICE',
  connectedAt: '2026-01-02T03:04:05.000Z',
};

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    let store: Store;
    const open = async () => (await engine.fresh()).open();

    describe('personal keys', () => {
      it('round-trip, replace (clearing a failure), list without keys and delete', async () => {
        store = await open();
        const s = store.personalKeys;
        expect(await s.save(key())).toBe(false);
        expect(await s.get('T1', 'U_BOB')).toEqual(key());
        expect(await s.markFailing('T1', 'U_BOB', 'The key was revoked.', 5)).toBe(true);
        // Told once: the second refusal changes nothing.
        expect(await s.markFailing('T1', 'U_BOB', 'again', 6)).toBe(false);
        expect(await s.info('T1', 'U_BOB')).toMatchObject({
          failingSince: 5,
          failure: 'The key was revoked.',
        });
        expect(await s.byServiceUser('T1', 'svc-U_BOB')).toEqual([]);
        expect(await s.save({ ...key(), apiKey: 'wk_new_one' })).toBe(true);
        const now = await s.get('T1', 'U_BOB');
        expect(now?.apiKey).toBe('wk_new_one');
        expect(now?.failingSince).toBeUndefined();
        await s.save(key('U_CAROL', 'wk_carol'));
        expect((await s.list('T1')).map((k) => [k.slackUserId, 'apiKey' in k])).toEqual([
          ['U_BOB', false],
          ['U_CAROL', false],
        ]);
        expect((await s.byServiceUser('T1', 'svc-U_CAROL')).map((k) => k.slackUserId)).toEqual([
          'U_CAROL',
        ]);
        expect(await s.delete('T1', 'U_BOB')).toBe(true);
        expect(await s.delete('T1', 'U_BOB')).toBe(false);
        expect(await s.get('T1', 'U_BOB')).toBeUndefined();
      });

      it('are not stored in the clear, and do not open on another person’s row', async () => {
        store = await open();
        const secret = 'wk_personal_plaintext_must_not_appear';
        await store.personalKeys.save(key('U_BOB', secret));
        await store.personalKeys.save(key('U_CAROL', 'wk_carol'));
        expect(await engine.holdsInClear(store, secret)).toBe(false);
        await engine.exec(
          store,
          `UPDATE personal_keys SET api_key_enc = (SELECT api_key_enc FROM personal_keys WHERE slack_user_id = 'U_BOB') WHERE slack_user_id = 'U_CAROL'`,
        );
        await expect(store.personalKeys.get('T1', 'U_CAROL')).rejects.toThrow(DecryptError);
      });

      it('cannot be opened with another secrets key, but their facts stay readable', async () => {
        const db = await engine.fresh();
        store = await db.open({ secretsKey: randomBytes(32) });
        await store.personalKeys.save(key());
        store = await db.open({ secretsKey: randomBytes(32) });
        await expect(store.personalKeys.get('T1', 'U_BOB')).rejects.toThrow(DecryptError);
        expect((await store.personalKeys.info('T1', 'U_BOB'))?.serviceUserId).toBe('svc-U_BOB');
      });

      it('go with the team’s service workspace (forgetTeam)', async () => {
        store = await open();
        await store.connect(workspace);
        await store.personalKeys.save(key());
        await store.forgetTeam('T1');
        expect(await store.personalKeys.list('T1')).toEqual([]);
      });
    });

    describe('team settings', () => {
      it('default to attributed members and admin-only links, and change one at a time', async () => {
        store = await open();
        const s = store.teamSettings;
        expect(await s.get('T1')).toEqual({ members: 'attributed', links: 'admins' });
        await s.set('T1', { members: 'read-only' }, 'U_ALICE', 10);
        expect(await s.set('T1', { links: 'everyone' }, 'U_DAN', 11)).toEqual({
          members: 'read-only',
          links: 'everyone',
          updatedBy: 'U_DAN',
          updatedAt: 11,
        });
        expect(await s.get('T1')).toMatchObject({ members: 'read-only', links: 'everyone' });
        expect(await s.get('T2')).toEqual({ members: 'attributed', links: 'admins' });
      });

      it('stay when the workspace is disconnected, go when Worklink is uninstalled', async () => {
        store = await open();
        await store.connect(workspace);
        await store.teamSettings.set('T1', { members: 'read-only' }, 'U_ALICE');
        await store.forgetTeam('T1');
        expect((await store.teamSettings.get('T1')).members).toBe('read-only');
        await store.forgetUninstalledTeam('T1', 'uninstalled');
        expect((await store.teamSettings.get('T1')).members).toBe('attributed');
      });
    });
  });
}
