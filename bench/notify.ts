/**
 * Assignment DMs under Slack's limits for chat.postMessage: the outbox worker delivers
 * queued DMs to a fake Slack Web API that allows at most --limit calls per sliding second
 * per team AND one message per second into one DM channel, answering 429 + Retry-After
 * past either (the two refusals look alike, as on Slack), optionally after --latency ms.
 *
 * Scenarios, each at 0 ms and at --latency ms of Slack latency:
 * - distinct: --people different people, one DM each;
 * - repeats:  --repeat-people people × --repeats DMs each (one person assigned several
 *   tasks), queued person by person — the order that starves a worker that looks only at
 *   the oldest rows.
 *
 * The achievable maximum is what both limits allow: min(team limit, channels × 1/s). Each
 * scenario prints the delivery rate (first DM to last) as a % of that, the 429s by kind,
 * sends into one channel less than 1 s apart (attempts, refused or not), duplicates
 * (more than one accepted DM for an outbox row) and losses (rows never delivered).
 *
 * Then a burst of mixed task activity — assignments, comments, completions — for
 * --mixed-people people through the activity hub (bench/notify-activity.ts): DMs/s against
 * what both limits allow, duplicates, losses and DMs to the person who acted.
 *
 *   npm run bench:notify [-- --limit 50 --people 500 --repeat-people 50 --repeats 10 --latency 100 --mixed-people 200]
 */
import { parseArgs } from 'node:util';
import type { NewOutboxRow } from '../src/store/index.js';
import { startFakeSlack } from '../test/support/fake-slack.js';
import { matchedRow, tempStore, testWorker } from '../test/support/notify-rows.js';
import {
  dmAttempts,
  dmCalls,
  dmCountsByOutboxId,
  imOf,
  scriptDmHistory,
  scriptRateLimit,
} from '../test/support/notify-slack.js';
import { runMixed } from './notify-activity.js';

const { values } = parseArgs({
  options: {
    limit: { type: 'string', default: '50' },
    people: { type: 'string', default: '500' },
    'repeat-people': { type: 'string', default: '50' },
    repeats: { type: 'string', default: '10' },
    latency: { type: 'string', default: '100' },
    'mixed-people': { type: 'string', default: '200' },
    'timeout-s': { type: 'string', default: '120' },
  },
});
const LIMIT = Number(values.limit);
const TIMEOUT_MS = Number(values['timeout-s']) * 1000;

interface Scenario {
  name: string;
  people: number;
  each: number;
  latencyMs: number;
}

interface Outcome {
  delivered: number;
  expected: number;
  rate: number;
  achievable: number;
  limitedTeam: number;
  limitedChannel: number;
  tooSoon: number;
  duplicates: number;
  losses: number;
}

const TEAM = 'T_BENCH';
const userId = (i: number) => `U${String(i + 1).padStart(5, '0')}`;

async function run(s: Scenario): Promise<Outcome> {
  const fake = await startFakeSlack({ teamId: TEAM });
  const tmp = tempStore('worklink-bench-notify-');
  try {
    scriptDmHistory(fake);
    const limiter = scriptRateLimit(fake, {
      perSecond: LIMIT,
      perChannel: true,
      latencyMs: s.latencyMs,
    });
    const { outbox } = tmp.store;
    const rows: NewOutboxRow[] = [];
    for (let p = 0; p < s.people; p++) {
      for (let k = 0; k < s.each; k++) {
        const slackUserId = userId(p);
        rows.push(
          matchedRow(TEAM, slackUserId, {
            taskId: `task${String(p * s.each + k).padStart(20, '0')}`,
            taskName: `Bench task ${k + 1}`,
          }),
        );
      }
    }
    await outbox.enqueue(rows, 'slack');
    const expected = rows.length;
    // As the app builds it (src/slack/notify/index.ts), with the app's Web API timeout.
    const worker = testWorker(tmp.store, fake.apiUrl, { timeoutMs: 10_000, idlePollMs: 1_000 });
    worker.start();
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      const c = await outbox.counts();
      if (c.sent + c.failed + c.skipped >= expected || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await worker.stop();

    const dms = dmCalls(fake);
    const perRow = dmCountsByOutboxId(fake);
    const duplicates = [...perRow.values()].reduce((n, k) => n + Math.max(0, k - 1), 0);
    const spanS = ((dms.at(-1)?.at ?? 0) - (dms[0]?.at ?? 0)) / 1000;
    // n DMs spaced over the span: (n - 1) intervals.
    const rate = spanS > 0 ? (dms.length - 1) / spanS : 0;
    // Attempts into a channel less than 1 s after the previous attempt there.
    const lastAt = new Map<string, number>();
    let tooSoon = 0;
    for (const c of dmAttempts(fake)) {
      const ch = imOf(String(c.body.channel));
      const prev = lastAt.get(ch);
      if (prev !== undefined && c.at - prev < 1000) tooSoon++;
      lastAt.set(ch, c.at);
    }
    return {
      delivered: dms.length,
      expected,
      rate,
      achievable: Math.min(LIMIT, s.people),
      limitedTeam: limiter.limitedTeam,
      limitedChannel: limiter.limitedChannel,
      tooSoon,
      duplicates,
      losses: expected - perRow.size,
    };
  } finally {
    await fake.close();
    await tmp.remove();
  }
}

async function main() {
  const latency = Number(values.latency);
  const people = Number(values.people);
  const repeatPeople = Number(values['repeat-people']);
  const repeats = Number(values.repeats);
  const scenarios: Scenario[] = [];
  for (const latencyMs of [0, latency]) {
    scenarios.push({ name: `distinct ${people} × 1`, people, each: 1, latencyMs });
    scenarios.push({
      name: `repeats ${repeatPeople} × ${repeats}`,
      people: repeatPeople,
      each: repeats,
      latencyMs,
    });
  }
  console.log(
    `Fake Slack: ${LIMIT} chat.postMessage/s per team, 1/s per channel, 429 + Retry-After past either.`,
  );
  console.log(
    'scenario               latency  delivered   DMs/s  achievable  % of max  429 team/channel  <1s apart  dup  lost',
  );
  let bad = false;
  for (const s of scenarios) {
    const o = await run(s);
    const pct = (o.rate / o.achievable) * 100;
    if (o.duplicates > 0 || o.losses > 0) bad = true;
    console.log(
      [
        s.name.padEnd(22),
        `${s.latencyMs} ms`.padStart(7),
        `${o.delivered}/${o.expected}`.padStart(10),
        o.rate.toFixed(1).padStart(7),
        `${o.achievable}/s`.padStart(11),
        `${pct.toFixed(1)} %`.padStart(9),
        `${o.limitedTeam}/${o.limitedChannel}`.padStart(17),
        String(o.tooSoon).padStart(10),
        String(o.duplicates).padStart(4),
        String(o.losses).padStart(5),
      ].join(' '),
    );
  }
  const mixedPeople = Number(values['mixed-people']);
  console.log(
    `\nMixed activity burst, ${mixedPeople} people (assign, comment, complete; assignments and comments told twice):`,
  );
  console.log(
    'latency  events  queued in  delivered   DMs/s  achievable  % of max  429s  dup  lost  to actor',
  );
  for (const latencyMs of [0, latency]) {
    const m = await runMixed(mixedPeople, LIMIT, latencyMs, TIMEOUT_MS);
    if (m.duplicates > 0 || m.losses > 0 || m.toActor > 0) bad = true;
    console.log(
      [
        `${latencyMs} ms`.padStart(7),
        String(m.events).padStart(7),
        `${m.queuedMs} ms`.padStart(10),
        `${m.delivered}/${m.expected}`.padStart(10),
        m.rate.toFixed(1).padStart(7),
        `${m.achievable}/s`.padStart(11),
        `${((m.rate / m.achievable) * 100).toFixed(1)} %`.padStart(9),
        String(m.limited).padStart(5),
        String(m.duplicates).padStart(4),
        String(m.losses).padStart(5),
        String(m.toActor).padStart(9),
      ].join(' '),
    );
  }
  if (bad) process.exitCode = 1;
}

await main();
