/**
 * The outbox worker's cost per delivered DM as the backlog grows: the same delivery (the
 * first --deliver DMs, to a fake Slack allowing --limit chat.postMessage/s per team and 1/s
 * per channel, so the worker is paced most of the time) with 1,000 and with 50,000 rows
 * pending. Prints the process's CPU time per delivered DM for each backlog and the ratio;
 * flat (≈ 1×) means the worker's queries do not walk the backlog. Also the time spent in the
 * queue's own queries (due, nextDueAt, claim) per DM, which on PostgreSQL includes the
 * server's work (the process's CPU does not). `--engine postgres` runs it on a PostgreSQL
 * server started for the run (Debian's binaries, as the tests start them).
 *
 *   npm run bench:outbox [-- --deliver 1000 --limit 200 --backlogs 1000,50000 --engine sqlite]
 */

import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createSecretBox } from '../src/store/crypto.js';
import type { NewOutboxRow, OutboxStore, Store } from '../src/store/index.js';
import { openPgStore } from '../src/store/pg/index.js';
import { startFakeSlack } from '../test/support/fake-slack.js';
import { matchedRow, type TempStore, tempStore, testWorker } from '../test/support/notify-rows.js';
import { scriptRateLimit } from '../test/support/notify-slack.js';
import { startPostgres } from '../test/support/postgres.js';

const { values } = parseArgs({
  options: {
    deliver: { type: 'string', default: '1000' },
    limit: { type: 'string', default: '200' },
    backlogs: { type: 'string', default: '1000,50000' },
    recipients: { type: 'string', default: '1000' },
    engine: { type: 'string', default: 'sqlite' },
  },
});
if (values.engine !== 'sqlite' && values.engine !== 'postgres') {
  throw new Error(`--engine is sqlite or postgres, not "${values.engine}".`);
}
const postgres = values.engine === 'postgres' ? await startPostgres() : undefined;

/** A new, empty store of the chosen engine. */
async function freshStore(): Promise<TempStore> {
  if (!postgres) return tempStore('worklink-bench-outbox-');
  const store = await openPgStore({
    url: await postgres.createDatabase(),
    dataDir: '.',
    secrets: createSecretBox(randomBytes(32)),
  });
  return { dir: '', store, remove: () => store.close() };
}

/** The store with the queue's reads timed (ms summed into `spent.ms`). */
function timed(store: Store, spent: { ms: number }): Store {
  const outbox: OutboxStore = { ...store.outbox };
  for (const name of ['due', 'nextDueAt', 'claim'] as const) {
    const original = store.outbox[name] as (...args: unknown[]) => Promise<unknown>;
    (outbox as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const t0 = performance.now();
      try {
        return await original(...args);
      } finally {
        spent.ms += performance.now() - t0;
      }
    };
  }
  return { ...store, outbox };
}
const DELIVER = Number(values.deliver);
const LIMIT = Number(values.limit);
const RECIPIENTS = Number(values.recipients);
const TEAM = 'T_BENCH';

async function run(backlog: number) {
  const fake = await startFakeSlack({ teamId: TEAM });
  const tmp = await freshStore();
  try {
    scriptRateLimit(fake, { perSecond: LIMIT, perChannel: true });
    const { outbox } = tmp.store;
    const rows: NewOutboxRow[] = Array.from({ length: backlog }, (_, i) => {
      const slackUserId = `U${String(i % RECIPIENTS).padStart(5, '0')}`;
      return matchedRow(TEAM, slackUserId, {
        taskId: `task${String(i).padStart(20, '0')}`,
        taskName: `Backlog task ${i + 1}`,
      });
    });
    await outbox.enqueue(rows, 'slack');
    const spent = { ms: 0 };
    const worker = testWorker(timed(tmp.store, spent), fake.apiUrl, {
      timeoutMs: 10_000,
      idlePollMs: 1_000,
    });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    worker.start();
    // The worker's own count: counting rows in the table would walk the backlog itself.
    while (worker.stats.sent < DELIVER) await new Promise((r) => setTimeout(r, 20));
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - t0;
    await worker.stop();
    const { sent } = worker.stats;
    return {
      sent,
      cpuPerDm: (cpu.user + cpu.system) / 1000 / sent,
      queuePerDm: spent.ms / sent,
      rate: sent / (wall / 1000),
    };
  } finally {
    await fake.close();
    await tmp.remove();
  }
}

async function main() {
  const backlogs = String(values.backlogs).split(',').map(Number);
  console.log(
    `Delivering ${DELIVER} DMs from a backlog of ${backlogs.join(' / ')} pending rows on ${values.engine}; fake Slack ${LIMIT}/s per team, 1/s per channel, ${RECIPIENTS} recipients.`,
  );
  // Warm-up (JIT, SQLite page cache), not shown.
  await run(Math.min(...backlogs));
  const results = [];
  for (const backlog of backlogs) {
    const r = await run(backlog);
    results.push(r);
    console.log(
      `  ${String(backlog).padStart(6)} pending: ${r.cpuPerDm.toFixed(3)} ms CPU and ${r.queuePerDm.toFixed(3)} ms in queue queries per delivered DM, ${r.rate.toFixed(1)} DMs/s`,
    );
  }
  const first = results[0];
  const last = results.at(-1)!;
  console.log(
    `Per DM, ${backlogs.at(-1)} vs ${backlogs[0]} pending: CPU ×${(last.cpuPerDm / first.cpuPerDm).toFixed(2)}, queue queries ×${(last.queuePerDm / first.queuePerDm).toFixed(2)} (flat = ×1)`,
  );
}

try {
  await main();
} finally {
  await postgres?.stop();
}
