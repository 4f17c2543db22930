/**
 * Several instances on one PostgreSQL database, each with its own store (its own pool, as
 * separate processes have): opening an empty database together, and the claims that must
 * have exactly one winner — an outbox row, a replayed request, a redelivered event, the
 * same DM queued twice. And on both engines: a unit of work that fails changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/store/crypto.js';
import type { Store } from '../../src/store/index.js';
import { openPgStore } from '../../src/store/pg/index.js';
import { matchedRow } from '../support/notify-rows.js';
import { usePostgres } from '../support/postgres.js';
import { engineWanted, storeEngines } from '../support/store-engines.js';

const postgres = usePostgres();
// Nothing is written there with PostgreSQL.
const dataDir = tmpdir();
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** `n` instances' stores on one new database, opened at the same moment. */
async function instances(n: number): Promise<Store[]> {
  const url = await postgres.freshDatabase();
  const secrets = createSecretBox(randomBytes(32));
  const stores = await Promise.all(
    Array.from({ length: n }, () => openPgStore({ url, dataDir, secrets, poolSize: 4 })),
  );
  opened.push(...stores);
  return stores;
}

const connection = (teamId: string, workspaceId = 'ws1') => ({
  teamId,
  workspaceId,
  workspaceName: 'Acme',
  apiKey: 'wk_key',
  connectedBy: 'U_ALICE',
  connectedAt: '2026-01-02T03:04:05.000Z',
});

// PostgreSQL only: runs where it is wanted (the postgres tier; all of `npm test`).
describe.runIf(engineWanted('PostgreSQL'))('several instances on one PostgreSQL database', () => {
  it('open an empty database together: every one succeeds, on one schema', async () => {
    const [a, b, c] = await instances(3);
    await a!.connections.save(connection('T1'));
    expect((await b!.connections.get('T1'))?.apiKey).toBe('wk_key');
    expect(await c!.connections.list()).toHaveLength(1);
  });

  it('race for one outbox row: exactly one claims it', async () => {
    const [a, b] = await instances(2);
    const [row] = await a!.outbox.enqueue([matchedRow('T1', 'U_BOB')], 'slack', 1_000);
    for (let round = 0; round < 5; round++) {
      const now = 2_000 + round * 10_000;
      const claims = await Promise.all([
        a!.outbox.claim(row!.id, now, 5_000),
        b!.outbox.claim(row!.id, now, 5_000),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      // Put back unsent for the next round (its lease would run out anyway).
      await a!.outbox.requeue(row!.id, now);
    }
  });

  it('queue the same DMs at once: one row each, the same for both', async () => {
    const [a, b] = await instances(2);
    // Many rounds: the second insert waiting for the first's commit is a narrow window.
    for (let round = 0; round < 20; round++) {
      const row = matchedRow('T1', `U_${round}`);
      const [fromA, fromB] = await Promise.all([
        a!.outbox.enqueue([row], 'ignore'),
        b!.outbox.enqueue([row], round % 2 ? 'slack' : 'ignore'),
      ]);
      expect(fromB[0]?.id).toBe(fromA[0]?.id);
    }
    expect((await a!.outbox.counts()).pending).toBe(20);
  });

  it('record overlapping task lists at once without deadlock or loss', async () => {
    const [a, b] = await instances(2);
    const tasks = (from: number, to: number, project: string) =>
      Array.from({ length: to - from }, (_, i) => ({
        taskId: `k${String(from + i).padStart(3, '0')}`,
        projectId: project,
        name: `Task ${from + i}`,
      }));
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        a!.taskIndex.recordMany('T1', tasks(0, 60, 'p1').reverse()),
        b!.taskIndex.recordMany('T1', [
          ...tasks(30, 90, 'p1').map((t) => ({ ...t, assigneeIds: ['u1'] })),
        ]),
      ]);
    }
    expect(await a!.taskIndex.count('T1')).toEqual({ open: 90, done: 0, gone: 0 });
    expect(await b!.taskIndex.assignedTo('T1', 'u1')).toHaveLength(60);
  });

  it('merge what two instances see of a new task at the same moment', async () => {
    const [a, b] = await instances(2);
    for (let round = 0; round < 20; round++) {
      const taskId = `new${round}`;
      await Promise.all([
        a!.taskIndex.record('T1', {
          taskId,
          projectId: 'p1',
          name: 'Seen by A',
          assigneeIds: ['u1'],
        }),
        b!.taskIndex.record('T1', { taskId, projectId: 'p1', dueDate: '2026-12-01', priority: 2 }),
      ]);
      expect(await a!.taskIndex.get('T1', taskId)).toMatchObject({
        name: 'Seen by A',
        assigneeIds: ['u1'],
        dueDate: '2026-12-01',
        priority: 2,
      });
    }
    expect(await a!.taskIndex.assignedTo('T1', 'u1')).toHaveLength(20);
  });

  it('take in a replayed request or a redelivered event once between them', async () => {
    const [a, b] = await instances(2);
    const claims = await Promise.all([
      a!.seenRequests.claim('sig:x', 10_000, 1_000),
      b!.seenRequests.claim('sig:x', 10_000, 1_000),
    ]);
    expect(claims.sort()).toEqual([false, true]);

    await a!.connections.save(connection('T1'));
    const event = { id: 'ev1', workspaceId: 'ws1' };
    const rowsFor = () => [matchedRow('T1', 'U_BOB', { taskId: 'k1', source: 'event' as const })];
    const results = await Promise.all([
      a!.takeInEvent(event, rowsFor),
      b!.takeInEvent(event, rowsFor),
    ]);
    expect(results.map((r) => r.duplicate).sort()).toEqual([false, true]);
    expect(await a!.outbox.forTask('T1', 'k1')).toHaveLength(1);
  });
});

for (const engine of storeEngines()) {
  describe(`a unit of work that fails, on ${engine.name}`, () => {
    it('changes nothing: the event is not seen and nothing is queued', async () => {
      const store = await (await engine.fresh()).open();
      await store.connections.save(connection('T1'));
      await store.connections.save(connection('T2'));
      const event = { id: 'ev-fails', workspaceId: 'ws1' };
      let calls = 0;
      const failing = (team: { teamId: string }) => {
        // The second team's rows cannot be built: the first team's are already queued.
        if (++calls === 2) throw new Error('cannot build rows');
        return [matchedRow(team.teamId, 'U_BOB', { taskId: 'k-fail', source: 'event' as const })];
      };
      await expect(store.takeInEvent(event, failing)).rejects.toThrow('cannot build rows');
      expect(await store.outbox.forTask('T1', 'k-fail')).toEqual([]);
      // Not marked seen: the service's redelivery is taken in whole.
      const retried = await store.takeInEvent(event, (team) => [
        matchedRow(team.teamId, 'U_BOB', { taskId: 'k-fail', source: 'event' as const }),
      ]);
      expect(retried).toEqual({ duplicate: false, teams: 2, queued: 2 });
    });

    it('connecting to another service workspace forgets the old one’s links in the same step', async () => {
      const store = await (await engine.fresh()).open();
      await store.connect(connection('T1', 'ws1'), [
        { channelId: 'C1', projectId: 'p1', projectName: 'Website' },
      ]);
      await store.taskIndex.record('T1', { taskId: 'k1', projectId: 'p1', name: 'Old task' });
      expect(await store.connect(connection('T1', 'ws1'))).toMatchObject({ switched: false });
      expect(await store.channelProjects.get('T1', 'C1')).toBeDefined();
      const switched = await store.connect(connection('T1', 'ws2'));
      expect(switched).toMatchObject({ switched: true, previous: { workspaceId: 'ws1' } });
      expect(await store.channelProjects.get('T1', 'C1')).toBeUndefined();
      expect(await store.taskIndex.get('T1', 'k1')).toBeUndefined();
      expect((await store.connections.info('T1'))?.workspaceId).toBe('ws2');
      // Linking a channel remembers the project and answers the link it replaced.
      const first = await store.linkChannel(
        'T1',
        'C2',
        { projectId: 'p2', projectName: 'Two' },
        'U1',
      );
      expect(first).toEqual({});
      const again = await store.linkChannel(
        'T1',
        'C2',
        { projectId: 'p3', projectName: 'Three' },
        'U1',
      );
      expect(again.before).toMatchObject({ projectId: 'p2' });
      expect((await store.knownProjects.get('T1', 'p3'))?.projectName).toBe('Three');
    });
  });
}
