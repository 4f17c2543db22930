/**
 * Units of work (src/store/units/), written once over the engine-neutral transaction: on
 * both engines a failing unit leaves nothing behind, and what other callers do while a unit
 * runs is neither rolled back with it nor lost.
 */
import { describe, expect, it } from 'vitest';
import { storeEngines } from '../support/store-engines.js';

const engines = storeEngines();

const connection = {
  teamId: 'T1',
  workspaceId: 'ws1',
  workspaceName: 'Acme',
  apiKey: 'wk_live_0123456789abcdef',
  connectedBy: 'U_ALICE',
  connectedAt: '2026-01-02T03:04:05.000Z',
};
const event = { id: 'ev1', workspaceId: 'ws1', projectId: 'P1' };

describe.each(engines)('$name', (engine) => {
  it('rolls a failing unit back whole, and keeps what another caller wrote meanwhile', async () => {
    const store = await (await engine.fresh()).open();
    await store.connect(connection);
    const failing = store.takeInEvent(event, () => {
      throw new Error('the rows could not be built');
    });
    // Called while the unit's transaction is open (SQLite: on the same connection).
    const remembered = store.knownProjects.remember('T1', 'P1', 'Launch');
    await expect(failing).rejects.toThrow('the rows could not be built');
    await remembered;
    expect((await store.knownProjects.get('T1', 'P1'))?.projectName).toBe('Launch');
    // The event was not marked seen: taking it in again works.
    const names: (string | undefined)[] = [];
    const again = await store.takeInEvent(event, (_team, projectName) => {
      names.push(projectName);
      return [];
    });
    expect(again).toEqual({ duplicate: false, teams: 1, queued: 0 });
    expect(names).toEqual(['Launch']);
    expect((await store.takeInEvent(event, () => [])).duplicate).toBe(true);
  });

  it('runs units one after the other: two connects at once both hold', async () => {
    const store = await (await engine.fresh()).open();
    const link = (channelId: string) => ({ channelId, projectId: 'P1', projectName: 'Launch' });
    const results = await Promise.all([
      store.connect(connection, [link('C1')]),
      store.connect({ ...connection, workspaceId: 'ws2' }, [link('C2')]),
    ]);
    // Whichever ran second saw the first's connection and switched from it (PostgreSQL does
    // not promise which goes first).
    const secondIndex = results.findIndex((r) => r.switched);
    expect(secondIndex).toBeGreaterThanOrEqual(0);
    const first = results[1 - secondIndex];
    const second = results[secondIndex];
    expect(first).toEqual({ switched: false });
    const [firstWs, secondWs] = secondIndex === 1 ? ['ws1', 'ws2'] : ['ws2', 'ws1'];
    expect(second?.previous?.workspaceId).toBe(firstWs);
    // The switch forgot the first workspace's links; the second's stays.
    const links = await store.channelProjects.listForTeam('T1');
    expect(links.map((l) => l.channelId)).toEqual([secondIndex === 1 ? 'C2' : 'C1']);
    expect((await store.connections.info('T1'))?.workspaceId).toBe(secondWs);
  });
});
