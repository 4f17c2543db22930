/**
 * The outbox worker's cost per delivered DM as the backlog grows: the same delivery (the
 * first --deliver DMs, to a fake Slack allowing --limit chat.postMessage/s per team and 1/s
 * per channel, so the worker is paced most of the time) with 1,000 and with 50,000 rows
 * pending. Prints the process's CPU time per delivered DM for each backlog and the ratio;
 * flat (≈ 1×) means the worker's queries do not walk the backlog.
 *
 *   npm run bench:outbox [-- --deliver 1000 --limit 200 --backlogs 1000,50000]
 */
import { parseArgs } from 'node:util';
import type { NewOutboxRow } from '../src/store/outbox.js';
import { startFakeSlack } from '../test/support/fake-slack.js';
import { tempStore, testWorker } from '../test/support/notify-rows.js';
import { scriptRateLimit } from '../test/support/notify-slack.js';

const { values } = parseArgs({
  options: {
    deliver: { type: 'string', default: '1000' },
    limit: { type: 'string', default: '200' },
    backlogs: { type: 'string', default: '1000,50000' },
    recipients: { type: 'string', default: '1000' },
  },
});
const DELIVER = Number(values.deliver);
const LIMIT = Number(values.limit);
const RECIPIENTS = Number(values.recipients);
const TEAM = 'T_BENCH';

async function run(backlog: number) {
  const fake = await startFakeSlack({ teamId: TEAM });
  const tmp = tempStore('worklink-bench-outbox-');
  try {
    scriptRateLimit(fake, { perSecond: LIMIT, perChannel: true });
    const { outbox } = tmp.store;
    const rows: NewOutboxRow[] = Array.from({ length: backlog }, (_, i) => {
      const slackUserId = `U${String(i % RECIPIENTS).padStart(5, '0')}`;
      return {
        teamId: TEAM,
        taskId: `task${String(i).padStart(20, '0')}`,
        serviceUserId: `svc_${slackUserId}`,
        source: 'slack',
        creatorLabel: 'Alice Adams',
        taskName: `Backlog task ${i + 1}`,
        projectName: 'Website',
        slackUserId,
      };
    });
    await outbox.enqueue(rows, 'slack');
    const worker = testWorker(tmp.store, fake.apiUrl, { timeoutMs: 10_000, idlePollMs: 1_000 });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    worker.start();
    // The worker's own count: counting rows in the table would walk the backlog itself.
    while (worker.stats.sent < DELIVER) await new Promise((r) => setTimeout(r, 20));
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - t0;
    await worker.stop();
    const { sent } = worker.stats;
    return { sent, cpuPerDm: (cpu.user + cpu.system) / 1000 / sent, rate: sent / (wall / 1000) };
  } finally {
    await fake.close();
    await tmp.remove();
  }
}

async function main() {
  const backlogs = String(values.backlogs).split(',').map(Number);
  console.log(
    `Delivering ${DELIVER} DMs from a backlog of ${backlogs.join(' / ')} pending rows; fake Slack ${LIMIT}/s per team, 1/s per channel, ${RECIPIENTS} recipients.`,
  );
  // Warm-up (JIT, SQLite page cache), not shown.
  await run(Math.min(...backlogs));
  const results = [];
  for (const backlog of backlogs) {
    const r = await run(backlog);
    results.push(r);
    console.log(
      `  ${String(backlog).padStart(6)} pending: ${r.cpuPerDm.toFixed(3)} ms CPU per delivered DM, ${r.rate.toFixed(1)} DMs/s`,
    );
  }
  const first = results[0];
  const last = results.at(-1)!;
  console.log(
    `CPU per DM, ${backlogs.at(-1)} vs ${backlogs[0]} pending: ×${(last.cpuPerDm / first.cpuPerDm).toFixed(2)} (flat = ×1)`,
  );
}

await main();
