/**
 * Round trips on PostgreSQL, counted by the pool (PgDb.counts()): the statements run per DM
 * and per command use no transaction where one statement does the work.
 */
import { describe, expect, it } from 'vitest';
import { pgDatabase } from '../../src/store/pg/index.js';
import { matchedRow } from '../support/notify-rows.js';
import { storeEngines } from '../support/store-engines.js';

// PostgreSQL only (the fast tier runs without it: then the file is skipped).
const engine = storeEngines().find((e) => e.name === 'PostgreSQL');

describe.skipIf(!engine)('PostgreSQL', () => {
  it('queues one DM in one statement, and several in one transaction', async () => {
    if (!engine) return;
    const store = await (await engine.fresh()).open();
    const db = pgDatabase(store);
    if (!db) throw new Error('not PostgreSQL');
    const before = db.counts();
    const bob = matchedRow('T1', 'U_BOB');
    const [row] = await store.outbox.enqueue([bob], 'slack', 0);
    const one = db.counts();
    expect(one.statements - before.statements).toBe(1);
    expect(one.transactions - before.transactions).toBe(0);
    expect(row).toMatchObject({ teamId: 'T1', slackUserId: 'U_BOB', status: 'pending' });

    // Queued again (a redelivery): the row as it stands, read back.
    const [again] = await store.outbox.enqueue([bob], 'ignore', 0);
    expect(again?.id).toBe(row?.id);

    const rows = await store.outbox.enqueue(
      [matchedRow('T1', 'U_CAROL'), matchedRow('T1', 'U_DAN')],
      'slack',
      0,
    );
    expect(rows).toHaveLength(2);
    expect(db.counts().transactions - one.transactions).toBe(1);
  });

  it('records a list of sightings in one statement and no transaction, and tells what changed', async () => {
    if (!engine) return;
    const database = await engine.fresh();
    const [a, b] = [await database.open(), await database.open()];
    const db = pgDatabase(a);
    if (!db) throw new Error('not PostgreSQL');
    const task = (i: number, extra: object = {}) => ({
      taskId: `k${String(i).padStart(2, '0')}`,
      projectId: 'p1',
      name: `Task ${i}`,
      ...extra,
    });
    await a.taskIndex.recordMany(
      'T1',
      [0, 1, 2, 3, 4].map((i) => task(i, { assigneeIds: ['u1'] })),
    );

    // Five known (one renamed, one reassigned), five new: one round trip (seven before).
    const before = db.counts();
    const changes = await a.taskIndex.seeMany('T1', [
      ...[0, 1, 2].map((i) => task(i, { read: true })),
      task(3, { name: 'Renamed' }),
      task(4, { assigneeIds: ['u2'], read: true }),
      ...[5, 6, 7, 8, 9].map((i) => task(i, { assigneeIds: ['u2'] })),
    ]);
    const after = db.counts();
    expect(after.statements - before.statements).toBe(1);
    expect(after.transactions - before.transactions).toBe(0);
    expect(changes.map((c) => [c.before.name, c.after.name])).toEqual([['Task 3', 'Renamed']]);
    // The assignees' table follows the rows (by trigger), seen from another instance.
    expect((await b.taskIndex.assignedTo('T1', 'u1')).map((t) => t.taskId).sort()).toEqual([
      'k00',
      'k01',
      'k02',
      'k03',
    ]);
    expect(await b.taskIndex.assignedTo('T1', 'u2')).toHaveLength(6);
    expect(await b.taskIndex.get('T1', 'k04')).toMatchObject({ assigneeIds: ['u2'] });
  });

  it('keeps each task’s assignees whole when two instances record it at once', async () => {
    if (!engine) return;
    const database = await engine.fresh();
    const [a, b] = [await database.open(), await database.open()];
    for (let round = 0; round < 10; round++) {
      const ids = Array.from({ length: 20 }, (_, i) => `k${i}`);
      await Promise.all([
        a.taskIndex.recordMany(
          'T1',
          ids.map((taskId) => ({ taskId, projectId: 'p1', assigneeIds: ['uA', `r${round}`] })),
        ),
        b.taskIndex.recordMany(
          'T1',
          [...ids].reverse().map((taskId) => ({ taskId, projectId: 'p1', assigneeIds: ['uB'] })),
        ),
      ]);
      // Whichever came last, the assignees' table says what each row says.
      for (const taskId of ids) {
        const row = await a.taskIndex.get('T1', taskId);
        const holders = [];
        for (const user of ['uA', 'uB', `r${round}`]) {
          if ((await a.taskIndex.assignedTo('T1', user)).some((t) => t.taskId === taskId)) {
            holders.push(user);
          }
        }
        expect(holders.sort()).toEqual([...(row?.assigneeIds ?? [])].sort());
      }
    }
  });

  it('remembers a project seen again under the same name without writing it again', async () => {
    if (!engine) return;
    const store = await (await engine.fresh()).open();
    const db = pgDatabase(store);
    if (!db) throw new Error('not PostgreSQL');
    const writes = async (work: () => Promise<unknown>) => {
      const before = db.counts().statements;
      await work();
      return db.counts().statements - before;
    };
    const known = store.knownProjects;
    expect(await writes(() => known.remember('T1', 'p1', 'Website'))).toBe(1);
    // Every /work list remembers its project: the same sighting a moment later is not sent.
    expect(await writes(() => known.remember('T1', 'p1', 'Website'))).toBe(0);
    expect(await writes(() => known.remember('T1', 'p1', 'Website relaunch'))).toBe(1);
    expect((await known.get('T1', 'p1'))?.projectName).toBe('Website relaunch');
    // Forgotten (directly, or with the team in a unit of work): remembered again at once.
    await known.forget('T1', 'p1');
    expect(await writes(() => known.remember('T1', 'p1', 'Website relaunch'))).toBe(1);
    await store.forgetTeam('T1');
    await known.remember('T1', 'p1', 'Website relaunch');
    expect((await known.get('T1', 'p1'))?.projectName).toBe('Website relaunch');
  });
});
