/**
 * How PostgreSQL reads the outbox's queue (as outbox.test.ts checks SQLite's plans): with a
 * paused team's backlog and a busy team's due rows, and fresh statistics, every statement
 * due() and nextDueAt() run reads notify_outbox through an index, in order — no scan of the
 * table, no sort of a team's rows.
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createSecretBox } from '../../src/store/crypto.js';
import { openPgStore, pgDatabase } from '../../src/store/pg/index.js';
import { matchedRow } from '../support/notify-rows.js';
import { usePostgres } from '../support/postgres.js';

const postgres = usePostgres();

it('reads due rows by team and due time from an index, never walking the backlog', async () => {
  const store = await openPgStore({
    url: await postgres.freshDatabase(),
    dataDir: '.',
    secrets: createSecretBox(randomBytes(32)),
  });
  try {
    const db = pgDatabase(store)!;
    const rows = (team: string, n: number) =>
      Array.from({ length: n }, (_, i) => matchedRow(team, `U_${i}`, { notBefore: 10 + i }));
    await store.outbox.enqueue([...rows('T_BUSY', 3_000), ...rows('T_OTHER', 3_000)], 'slack');
    await db.run('ANALYZE');

    // Every statement the two methods send, with its parameters.
    const ran: { text: string; params: unknown[] }[] = [];
    const query = db.pool.query.bind(db.pool) as (text: string, params?: unknown[]) => unknown;
    db.pool.query = ((text: string, params?: unknown[]) => {
      ran.push({ text, params: params ?? [] });
      return query(text, params);
    }) as typeof db.pool.query;
    const due = await store.outbox.due(5_000, 10, ['T_BUSY']);
    expect(due.map((r) => r.teamId)).toEqual(Array(10).fill('T_OTHER'));
    expect(await store.outbox.nextDueAt(['T_BUSY'])).toBe(10);
    db.pool.query = query as typeof db.pool.query;

    expect(ran).toHaveLength(2);
    for (const { text, params } of ran) {
      const plan = (await db.rows<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params)).map(
        (r) => r['QUERY PLAN'],
      );
      expect(plan.join('\n'), text).not.toMatch(/Seq Scan on notify_outbox|Sort/);
    }
  } finally {
    await store.close();
  }
  // 6,000 rows queued first: minutes on a loaded 2-core machine.
}, 180_000);
