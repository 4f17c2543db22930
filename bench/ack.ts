/**
 * Ack latency of `/work` under bursts of concurrent signed slash commands (from the five
 * demo users) against the real app — HTTP mode, embedded service, fake Slack Web API —
 * beside a bare Bolt app that only acks, in the same run. Two mixes: `help`/`status`
 * (answered from Worklink's own store) and `list`/`task <id>`/`add <title>` (each calls the
 * service: the channel is linked to the demo's project), at each --concurrency (a busy
 * workspace produces 8–32 at once). The load comes from a worker thread, so building and
 * signing requests does not count against the servers' event loop. Prints p50/p99 of the
 * time to the HTTP response (the ack) against bare Bolt, and for Worklink the time until
 * the follow-up reply reached response_url.
 *
 *   npm run bench:ack [-- --rounds 5 --concurrency 8,32,200]
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { App, HTTPReceiver, type Logger } from '@slack/bolt';
import { startHarness } from '../test/support/harness.js';
import { SlackRequests } from '../test/support/slack-requests.js';
import { Breakdown } from './breakdown.js';

const BARE_SECRET = 'bare-signing-secret';

/** One burst, as asked by the main thread. */
interface BurstOrder {
  url: string;
  signingSecret: string;
  responseBase: string;
  users: string[];
  concurrency: number;
  /** Command texts, used in turn. */
  commands: string[];
}
interface BurstResult {
  /** Ack latency of each request, ms. */
  acks: number[];
  /** response_url id → when the request was sent (epoch ms, sub-ms precision). */
  sent: Record<string, number>;
}

const now = () => performance.timeOrigin + performance.now();

// ── Worker: the load generator ───────────────────────────────────────────────

async function burst(order: BurstOrder): Promise<BurstResult> {
  // The request's id is its response_url's, and stands for `{id}` in the command's text (the
  // title of a `/work add`, whose confirmation is its card in the channel, not a reply).
  let nextId = '';
  const slack = new SlackRequests({
    url: order.url,
    signingSecret: order.signingSecret,
    responseUrl: () => `${order.responseBase}/response/${nextId}`,
  });
  const acks: number[] = [];
  const sent: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: order.concurrency }, async (_, i) => {
      const id = randomUUID();
      const text = order.commands[i % order.commands.length]!.replace('{id}', id);
      const started = now();
      nextId = id; // read synchronously by slashCommand
      const res = await slack.slashCommand(text, { userId: order.users[i % order.users.length] });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      acks.push(now() - started);
      sent[id] = started;
    }),
  );
  return { acks, sent };
}

if (!isMainThread) {
  parentPort!.on('message', (order: BurstOrder) => {
    burst(order).then(
      (r) => parentPort!.postMessage({ ok: true, ...r }),
      (e) => parentPort!.postMessage({ ok: false, error: String(e) }),
    );
  });
}

// ── Main: the servers and the figures ───────────────────────────────────────

const quiet: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => 'error' as never,
  setName() {},
};

async function startBareBolt(slackApiUrl: string) {
  const app = new App({
    token: 'xoxb-bare',
    botId: 'B_BARE',
    botUserId: 'U_BARE',
    receiver: new HTTPReceiver({ signingSecret: BARE_SECRET, logger: quiet }),
    clientOptions: { slackApiUrl },
    logger: quiet,
  });
  app.command('/work', async ({ ack }) => {
    await ack();
  });
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/slack/events`, stop: () => app.stop() };
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
  return { p50: at(50), p99: at(99), max: s[s.length - 1], n: s.length };
}

const ms = (v: number | undefined) => `${(v ?? Number.NaN).toFixed(1).padStart(6)} ms`;

async function main() {
  const { values } = parseArgs({
    options: {
      // Rounds per row: enough for --samples acks (a p99 needs hundreds), at least 3.
      samples: { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '8,32,200' },
      // Only the mixes whose name contains this ('list': list, task, add).
      mix: { type: 'string', default: '' },
      // Leaves out where Worklink's time went (bench/breakdown.ts).
      brief: { type: 'boolean', default: false },
    },
  });
  const samples = Number(values.samples);
  const levels = String(values.concurrency).split(',').map(Number);

  const h = await startHarness({ connect: true });
  h.logger.setLevel('error' as never); // measure the app, not debug logging
  const { projectId } = h.seed.projects[0];
  await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', projectId, h.users.alice.id);
  const [firstTask] = await h.work.listTasks({ projectId });
  const mixes = [
    { name: 'help, status', commands: ['help', 'status'] },
    {
      name: 'list, task, add',
      commands: ['list', `task ${firstTask.taskId}`, 'add Benchmark task {id}'],
    },
  ];
  const bare = await startBareBolt(h.fake.apiUrl);
  const portOf = (url: string) => Number(new URL(url).port);
  const breakdown = new Breakdown(
    new Map([
      [portOf(h.worklink.eventsUrl), 'Worklink'],
      [portOf(h.service.baseUrl), 'service'],
      [portOf(h.service.altUrl), 'service'],
      [portOf(h.fake.apiUrl), 'fake Slack'],
      [portOf(bare.url), 'bare Bolt'],
    ]),
  );
  breakdown.countStoreCalls(h.worklink.store);
  const users = Object.values(h.users).map((u) => u.id);
  const secret = h.config.slack.mode === 'http' ? h.config.slack.signingSecret : '';
  // The worker runs this same file; register tsx there first so it can load TypeScript.
  const worker = new Worker(
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); });`,
    { eval: true },
  );

  const run = async (
    url: string,
    signingSecret: string,
    concurrency: number,
    commands: string[],
  ): Promise<BurstResult> => {
    worker.postMessage({
      url,
      signingSecret,
      responseBase: h.fake.url,
      users,
      concurrency,
      commands,
    } satisfies BurstOrder);
    const [reply] = (await once(worker, 'message')) as [
      BurstResult & { ok: boolean; error?: string },
    ];
    if (!reply.ok) throw new Error(reply.error);
    return reply;
  };
  // When each request's answer reached Slack: a response_url post, or (`/work add`) the
  // task's card posted into the channel, found by the id in its title. Each recorded call is
  // read once (cursors into the fake's lists): scanning them all on every poll cost the
  // shared event loop a quarter of its time at 200 concurrent, and showed as reply latency.
  const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const answered = new Map<string, number>();
  const seen = { responses: 0, calls: 0 };
  const note = (id: string, at: number) => {
    if (!answered.has(id)) answered.set(id, at);
  };
  const scan = () => {
    const { responses, calls } = h.fake;
    for (; seen.responses < responses.length; seen.responses++) {
      const r = responses[seen.responses]!;
      note(r.id, r.at);
    }
    for (; seen.calls < calls.length; seen.calls++) {
      const c = calls[seen.calls]!;
      if (c.method !== 'chat.postMessage') continue;
      for (const id of JSON.stringify(c.body).match(ID) ?? []) note(id, c.at);
    }
  };
  const resetFake = () => {
    h.fake.reset();
    seen.responses = 0;
    seen.calls = 0;
  };
  const followUps = async (sent: Record<string, number>) => {
    const ids = Object.keys(sent);
    await h.waitFor(
      () => {
        scan();
        return ids.every((id) => answered.has(id));
      },
      { timeoutMs: 60_000 },
    );
    return ids.map((id) => answered.get(id)! - sent[id]!);
  };

  console.log(
    `/work ack latency: signed slash commands in bursts, ${samples} samples per row (rounds of one burst). Aims: ack ≤ ×1.2 bare Bolt at p50 and p99; reply p50 ≤ 250 ms, p99 ≤ 600 ms.`,
  );
  for (const mix of mixes.filter((m) => m.name.includes(String(values.mix)))) {
    for (const concurrency of levels) {
      // Warm-up (JIT, pools, users.info cache), not measured.
      await run(bare.url, BARE_SECRET, concurrency, mix.commands);
      await followUps((await run(h.worklink.eventsUrl, secret, concurrency, mix.commands)).sent);
      resetFake();

      const bareAcks: number[] = [];
      const workAcks: number[] = [];
      const workReplies: number[] = [];
      breakdown.clear();
      const rounds = Math.max(3, Math.ceil(samples / concurrency));
      for (let r = 0; r < rounds; r++) {
        bareAcks.push(...(await run(bare.url, BARE_SECRET, concurrency, mix.commands)).acks);
        breakdown.resume();
        const w = await run(h.worklink.eventsUrl, secret, concurrency, mix.commands);
        workAcks.push(...w.acks);
        workReplies.push(...(await followUps(w.sent)));
        breakdown.pause();
        resetFake();
      }
      const b = stats(bareAcks);
      const w = stats(workAcks);
      const f = stats(workReplies);
      console.log(`\n${mix.name} × ${concurrency} concurrent`);
      console.log(`  bare Bolt, ack only      p50 ${ms(b.p50)}  p99 ${ms(b.p99)}  n=${b.n}`);
      console.log(`  Worklink ack             p50 ${ms(w.p50)}  p99 ${ms(w.p99)}  n=${w.n}`);
      console.log(
        `  Worklink / bare          p50 ×${(w.p50 / b.p50).toFixed(2)}     p99 ×${(w.p99 / b.p99).toFixed(2)}   (aim ≤ ×1.2 both)`,
      );
      console.log(
        `  Worklink reply posted    p50 ${ms(f.p50)}  p99 ${ms(f.p99)}  (send → response_url or card; aim p50 ≤ 250, p99 ≤ 600)`,
      );
      if (!values.brief) console.log(breakdown.report(workAcks.length).join('\n'));
    }
  }

  breakdown.stop();
  await worker.terminate();
  await bare.stop();
  await h.stop();
}

if (isMainThread) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
