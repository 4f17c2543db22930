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
});
