/**
 * task_messages on both engines: remembered cards, numbers, forgetting; and an assignment DM
 * recorded by the database itself (a trigger on each engine) when the outbox marks it sent,
 * while a digest (keyed by date, not by a task) is not.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { matchedRow } from '../support/notify-rows.js';
import { storeEngines } from '../support/store-engines.js';

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    let store: Store;
    beforeEach(async () => {
      store = await (await engine.fresh()).open();
    });

    it('remembers each message once, keeps numbers, forgets one or a whole team', async () => {
      const messages = store.taskMessages;
      const card = {
        teamId: 'T1',
        taskId: 'k1',
        channelId: 'C1',
        ts: '1.1',
        kind: 'card' as const,
      };
      await messages.remember({ ...card, actor: '<@U1>' }, 1_000);
      await messages.remember({ ...card, actor: 'someone else' }, 2_000);
      await messages.remember({ ...card, channelId: 'D1', ts: '2.2', kind: 'dm' }, 3_000);
      await messages.remember({ ...card, teamId: 'T2' }, 1_000);
      expect(await messages.forTask('T1', 'k1')).toEqual([
        { ...card, actor: '<@U1>', createdAt: 1_000 },
        { ...card, channelId: 'D1', ts: '2.2', kind: 'dm', createdAt: 3_000 },
      ]);
      await messages.setNumber('T1', 'k1', 12);
      expect((await messages.forTask('T1', 'k1')).map((m) => m.number)).toEqual([12, 12]);
      expect(await messages.forget('T1', 'C1', '1.1')).toBe(true);
      expect(await messages.forget('T1', 'C1', '1.1')).toBe(false);
      expect(await messages.deleteTeam('T1')).toBe(1);
      expect(await messages.forTask('T2', 'k1')).toHaveLength(1);
    });

    it('records an assignment DM when the outbox marks it sent, and not a digest', async () => {
      const [dm, digest, unsent] = await store.outbox.enqueue(
        [
          matchedRow('T1', 'U_BOB', { creatorLabel: '<@U_ALICE>' }),
          matchedRow('T1', 'U_CAROL', { taskId: 'digest:2026-11-23', message: '{"text":"x"}' }),
          matchedRow('T1', 'U_DAN'),
        ],
        'slack',
      );
      const before = Date.now();
      await store.outbox.markSent(dm!.id, { ts: '10.1', channel: 'D_BOB' });
      await store.outbox.markSent(digest!.id, { ts: '10.2', channel: 'D_CAROL' });
      await store.outbox.markFailed(unsent!.id, 'no');
      const recorded = await store.taskMessages.forTask('T1', dm!.taskId);
      expect(recorded).toEqual([
        {
          teamId: 'T1',
          taskId: dm!.taskId,
          channelId: 'D_BOB',
          ts: '10.1',
          kind: 'dm',
          actor: '<@U_ALICE>',
          createdAt: expect.any(Number),
        },
      ]);
      expect(recorded[0]!.createdAt).toBeGreaterThanOrEqual(before - 1_000);
      expect(await store.taskMessages.forTask('T1', 'digest:2026-11-23')).toEqual([]);
      expect(await store.taskMessages.forTask('T1', unsent!.taskId)).toEqual([]);
      // Marking it sent again (a reconciled resend) records nothing twice.
      await store.outbox.markSent(dm!.id, { ts: '10.1', channel: 'D_BOB' });
      expect(await store.taskMessages.forTask('T1', dm!.taskId)).toHaveLength(1);
    });
  });
}
