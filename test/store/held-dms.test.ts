/**
 * Quiet hours' tables on both engines: a person's window, DMs held and released (one alone as
 * it was, several as one new row, never twice), and who created each task (first one wins).
 */
import { describe, expect, it } from 'vitest';
import { BURST_REASON, HELD_REASON, SENT_COMBINED, SENT_GROUPED } from '../../src/store/index.js';
import { matchedRow } from '../support/notify-rows.js';
import { storeEngines } from '../support/store-engines.js';

for (const engine of storeEngines()) {
  describe(engine.name, () => {
    const open = async () => (await engine.fresh()).open();

    it('keeps a person’s quiet hours until they are turned off', async () => {
      const store = await open();
      const s = store.notifySettings;
      expect(await s.quietHours('T1', 'U1')).toBeUndefined();
      await s.setQuietHours('T1', 'U1', '20:00-08:00');
      expect(await s.quietHours('T1', 'U1')).toBe('20:00-08:00');
      expect(await s.quietHours('T1', 'U2')).toBeUndefined();
      // The on/off kinds are untouched by it.
      expect(await s.all('T1', 'U1')).toEqual({
        assigned: true,
        comments: true,
        completed: true,
        digest: true,
      });
      await s.setQuietHours('T1', 'U1', undefined);
      expect(await s.quietHours('T1', 'U1')).toBeUndefined();
    });

    it('answers a DM’s gate in one read: the kind’s setting and the quiet hours', async () => {
      const store = await open();
      const s = store.notifySettings;
      expect(await s.forDm('T1', 'U1', 'assigned')).toEqual({ enabled: true });
      await s.set('T1', 'U1', 'assigned', false);
      await s.setQuietHours('T1', 'U1', '20:00-08:00');
      expect(await s.forDm('T1', 'U1', 'assigned')).toEqual({
        enabled: false,
        quietHours: '20:00-08:00',
      });
      expect(await s.forDm('T1', 'U1', 'comments')).toEqual({
        enabled: true,
        quietHours: '20:00-08:00',
      });
      // A DM of no kind (quiet hours only) and another person.
      expect(await s.forDm('T1', 'U1', undefined)).toEqual({
        enabled: true,
        quietHours: '20:00-08:00',
      });
      expect(await s.forDm('T1', 'U2', 'assigned')).toEqual({ enabled: true });
      await s.setQuietHours('T1', 'U1', undefined);
      expect(await s.forDm('T1', 'U1', 'comments')).toEqual({ enabled: true });
    });

    it('holds DMs, then releases one alone as it was and several as one message', async () => {
      const store = await open();
      const [a, b, c] = await store.outbox.enqueue(
        [matchedRow('T1', 'U1'), matchedRow('T1', 'U1'), matchedRow('T1', 'U2')],
        'slack',
      );
      for (const [row, summary] of [
        [a!, 'first'],
        [b!, 'second'],
        [c!, 'alone'],
      ] as const) {
        await store.heldDms.hold({
          outboxId: row.id,
          teamId: 'T1',
          slackUserId: row.slackUserId!,
          releaseAt: 5_000,
          summary,
        });
      }
      expect((await store.outbox.get(a!.id))?.status).toBe('skipped');
      expect((await store.outbox.get(a!.id))?.lastError).toBe(HELD_REASON);
      expect((await store.heldDms.heldFor('T1', 'U1')).map((h) => h.summary)).toEqual([
        'first',
        'second',
      ]);
      expect(await store.heldDms.nextReleaseAt()).toBe(5_000);

      const combine = (held: readonly { summary: string }[]) =>
        JSON.stringify({ text: held.map((h) => h.summary).join(', '), blocks: [] });
      expect(await store.heldDms.release(4_999, combine)).toBe(0);
      expect(await store.heldDms.release(5_000, combine)).toBe(2);
      expect(await store.heldDms.release(5_000, combine)).toBe(0);
      expect(await store.heldDms.nextReleaseAt()).toBeUndefined();

      expect((await store.outbox.get(c!.id))?.status).toBe('pending');
      for (const id of [a!.id, b!.id]) {
        expect(await store.outbox.get(id)).toMatchObject({
          status: 'skipped',
          lastError: SENT_COMBINED,
        });
      }
      const [combined] = await store.outbox.forTask('T1', 'quiet:5000');
      expect(combined).toMatchObject({
        status: 'pending',
        slackUserId: 'U1',
        serviceUserId: 'slack:U1',
        message: JSON.stringify({ text: 'first, second', blocks: [] }),
      });
    });

    it('releases a person’s held DMs early when their quiet hours change', async () => {
      const store = await open();
      const [a, b] = await store.outbox.enqueue(
        [matchedRow('T1', 'U1'), matchedRow('T1', 'U2')],
        'slack',
      );
      for (const row of [a!, b!]) {
        await store.heldDms.hold({
          outboxId: row.id,
          teamId: 'T1',
          slackUserId: row.slackUserId!,
          releaseAt: 9_000,
          summary: 'held',
        });
      }
      expect(await store.heldDms.reschedule('T1', 'U1', 1_000)).toBe(1);
      expect(await store.heldDms.reschedule('T1', 'U9', 1_000)).toBe(0);
      const combine = () => JSON.stringify({ text: '', blocks: [] });
      expect(await store.heldDms.release(1_000, combine)).toBe(1);
      expect((await store.outbox.get(a!.id))?.status).toBe('pending');
      // The other person's DM still waits for their own quiet hours to end.
      expect((await store.outbox.get(b!.id))?.status).toBe('skipped');
      expect(await store.heldDms.nextReleaseAt()).toBe(9_000);
    });

    it('counts each person’s DMs in a burst window: the first few go, the rest wait for its end', async () => {
      const store = await open();
      const rule = { windowMs: 60_000, after: 3 };
      const count = (user: string, at: number) => store.heldDms.countInBurst('T1', user, at, rule);
      expect(await count('U1', 1_000)).toBeUndefined();
      expect(await count('U1', 2_000)).toBeUndefined();
      expect(await count('U1', 3_000)).toBeUndefined();
      // The fourth and later in the window: held to its end (its first DM + 60 s).
      expect(await count('U1', 4_000)).toBe(61_000);
      expect(await count('U1', 60_999)).toBe(61_000);
      // Someone else's window is their own.
      expect(await count('U2', 5_000)).toBeUndefined();
      // Once the window is over, a new one starts with the next DM.
      expect(await count('U1', 61_000)).toBeUndefined();
      expect(await count('U1', 61_500)).toBeUndefined();
      // Forgetting the team forgets its windows.
      await store.heldDms.deleteTeam('T1');
      for (const at of [62_000, 62_001, 62_002]) expect(await count('U1', at)).toBeUndefined();
      expect(await count('U1', 62_003)).toBe(122_000);
    });

    it('keeps what a held DM is about, and groups a burst under its own key and reasons', async () => {
      const store = await open();
      const rows = await store.outbox.enqueue(
        [matchedRow('T1', 'U1'), matchedRow('T1', 'U1'), matchedRow('T1', 'U1')],
        'slack',
      );
      for (const [i, row] of rows.entries()) {
        await store.heldDms.hold({
          outboxId: row.id,
          teamId: 'T1',
          slackUserId: 'U1',
          releaseAt: 61_000,
          summary: `line ${i}`,
          kind: 'assigned',
          projectName: 'Website relaunch',
          taskName: `Task ${i}`,
          cause: 'burst',
        });
      }
      expect((await store.outbox.get(rows[0]!.id))?.lastError).toBe(BURST_REASON);
      const held = await store.heldDms.heldFor('T1', 'U1');
      expect(held[2]).toEqual({
        outboxId: rows[2]!.id,
        teamId: 'T1',
        slackUserId: 'U1',
        releaseAt: 61_000,
        summary: 'line 2',
        kind: 'assigned',
        projectName: 'Website relaunch',
        taskName: 'Task 2',
        cause: 'burst',
      });
      const combine = (h: readonly { taskName?: string }[]) =>
        JSON.stringify({ text: h.map((x) => x.taskName).join(', '), blocks: [] });
      expect(await store.heldDms.release(61_000, combine)).toBe(1);
      for (const row of rows) {
        expect(await store.outbox.get(row.id)).toMatchObject({
          status: 'skipped',
          lastError: SENT_GROUPED,
        });
      }
      const [grouped] = await store.outbox.forTask('T1', 'burst:61000');
      expect(grouped).toMatchObject({
        status: 'pending',
        slackUserId: 'U1',
        taskName: '3 notifications sent as one',
        message: JSON.stringify({ text: 'Task 0, Task 1, Task 2', blocks: [] }),
      });
      // A DM held for quiet hours before this change reads as one held for quiet hours.
      const [old] = await store.outbox.enqueue([matchedRow('T1', 'U2')], 'slack');
      await store.heldDms.hold({
        outboxId: old!.id,
        teamId: 'T1',
        slackUserId: 'U2',
        releaseAt: 5,
        summary: 'old',
      });
      expect((await store.heldDms.heldFor('T1', 'U2'))[0]?.cause).toBe('quiet');
    });

    it('remembers the first creator of a task, and forgets them with the team', async () => {
      const store = await open();
      await store.taskCreators.note('T1', 'task1', { slackUserId: 'U_ALICE' });
      await store.taskCreators.note('T1', 'task1', { serviceUserId: 'svc_bob' });
      await store.taskCreators.note('T1', 'task2', {});
      expect(await store.taskCreators.get('T1', 'task1')).toEqual({ slackUserId: 'U_ALICE' });
      expect(await store.taskCreators.get('T1', 'task2')).toBeUndefined();
      await store.forgetTeam('T1');
      expect(await store.taskCreators.get('T1', 'task1')).toBeUndefined();
    });
  });
}
