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
    // Each team's first row through the store; the other 2,999 copied from it in one
    // statement (user U_n, due at 10 + n), as enqueueing them one by one would have made
    // them, without 6,000 round trips (minutes on a loaded 2-core machine).
    await store.outbox.enqueue(
      ['T_BUSY', 'T_OTHER'].map((team) => matchedRow(team, 'U_0', { notBefore: 10 })),
      'slack',
    );
    await db.run(`
      INSERT INTO notify_outbox (team_id, task_id, service_user_id, service_user_email, source,
        creator_label, task_name, project_name, due_date, priority, slack_user_id, status,
        next_attempt_at, marker, created_at, updated_at)
      SELECT o.team_id, o.task_id || '_' || g, 'svc_U_' || g, 'u_' || g || '@example.com',
        o.source, o.creator_label, o.task_name, o.project_name, o.due_date, o.priority,
        'U_' || g, o.status, 10 + g, o.marker || '_' || g, o.created_at, o.updated_at
      FROM notify_outbox o, generate_series(1, 2999) g`);
    expect(await db.rows('SELECT id FROM notify_outbox')).toHaveLength(6_000);
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
});
