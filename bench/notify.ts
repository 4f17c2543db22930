/**
 * Assignment DMs under Slack's rate limit: N tasks × 3 assignees created on the embedded
 * service (through its HTTP interface, not through Slack), announced to the real app by the
 * service's signed events, queued in the outbox and delivered by the worker to a fake Slack
 * Web API that accepts at most --limit chat.postMessage calls per sliding second per team
 * and answers 429 + Retry-After past it. Prints delivered DMs per second against the limit,
 * duplicates (more than one accepted DM for an outbox row) and losses (rows never delivered).
 *
 *   npm run bench:notify [-- --tasks 1000 --limit 50]
 */
import { parseArgs } from 'node:util';
import { startHarness } from '../test/support/harness.js';
import {
  dmCalls,
  dmCountsByOutboxId,
  scriptDmHistory,
  scriptRateLimit,
} from '../test/support/notify-slack.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '1000' },
    limit: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '8' },
    'timeout-s': { type: 'string', default: '600' },
  },
});
const TASKS = Number(values.tasks);
const LIMIT = Number(values.limit);
const CONCURRENCY = Number(values.concurrency);
const TIMEOUT_MS = Number(values['timeout-s']) * 1000;
const SECRET = 'bench-events-secret-0123456789abcdef';

async function main() {
  const h = await startHarness({
    connect: true,
    configure: (c) => ({ ...c, workEventsSecret: SECRET, logLevel: 'info' }),
  });
  try {
    // The harness logs at debug level into memory; a benchmark wants production's level.
    h.logger.setLevel('info' as never);
    const notifications = h.worklink.deps.notifications;
    // These tasks are created outside Slack; no Slack announcement will come to take over.
    notifications.tuning.eventGraceMs = 0;
    h.service.setEventsSubscriber({ url: `${h.worklink.url}/work/events`, secret: SECRET });
    scriptDmHistory(h.fake);
    const limiter = scriptRateLimit(h.fake, { perSecond: LIMIT, retryAfterS: 1 });
    const { outbox } = h.worklink.store;

    const emails = ['bob@example.com', 'carol@example.com', 'dan@example.com'];
    const assignees = emails.map((e) => h.seed.users.find((u) => u.email === e)!.id);
    const { projectId } = h.seed.projects[0];
    const expected = TASKS * assignees.length;

    console.log(
      `Creating ${TASKS} tasks × ${assignees.length} assignees (${expected} DMs); fake Slack allows ${LIMIT} chat.postMessage/s per team.`,
    );
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < TASKS) {
          const i = next++;
          await h.work.createTask({ projectId, name: `Bench task ${i + 1}`, taskUsers: assignees });
        }
      }),
    );
    const created = performance.now();
    console.log(`Tasks created in ${((created - started) / 1000).toFixed(1)} s.`);

    const deadline = Date.now() + TIMEOUT_MS;
    let lastReport = 0;
    for (;;) {
      const c = outbox.counts();
      const done = c.sent + c.failed + c.skipped;
      if (done >= expected || Date.now() > deadline) break;
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        console.log(`  … ${c.sent} sent, ${c.pending + c.sending} waiting, ${c.failed} failed`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const finished = performance.now();

    const counts = outbox.counts();
    const dms = dmCalls(h.fake);
    const perRow = dmCountsByOutboxId(h.fake);
    const duplicates = [...perRow.values()].reduce((n, k) => n + Math.max(0, k - 1), 0);
    const losses = expected - perRow.size;
    const first = dms[0]?.at ?? 0;
    const last = dms.at(-1)?.at ?? 0;
    const spanS = (last - first) / 1000;
    // n DMs spaced over the span: (n - 1) intervals.
    const rate = spanS > 0 ? (dms.length - 1) / spanS : 0;
    const endToEnd = (finished - started) / 1000;

    console.log('');
    console.log(
      `DMs delivered:        ${dms.length} of ${expected} (outbox: ${counts.sent} sent, ${counts.failed} failed, ${counts.pending + counts.sending} left)`,
    );
    console.log(
      `Delivery rate:        ${rate.toFixed(1)} DMs/s over ${spanS.toFixed(1)} s, first DM to last`,
    );
    console.log(`Against the limit:    ${((rate / LIMIT) * 100).toFixed(1)} % of ${LIMIT}/s`);
    console.log(`429 answers:          ${limiter.limited} (each waited out per Retry-After)`);
    const { stats } = notifications.worker;
    const pace = notifications.worker.teamPaceMs(h.teamId);
    console.log(
      `Worker:               ${stats.rateLimited} rate-limited tries, ${stats.retried} retries, ${stats.reconciled} reconciled; pace learned from 429s: ${pace ? `${(1000 / pace).toFixed(1)}/s` : 'none'}`,
    );
    console.log(`Duplicates:           ${duplicates}`);
    console.log(`Losses:               ${losses}`);
    console.log(
      `End to end:           ${endToEnd.toFixed(1)} s from the first create to the last DM`,
    );
    if (losses > 0 || duplicates > 0) process.exitCode = 1;
  } finally {
    await h.stop();
  }
}

await main();
