/**
 * Ack latency of `/work` under bursts of concurrent signed slash commands (from the five
 * demo users) against the real app — HTTP mode, talking to the embedded service and a fake
 * Slack Web API — beside a bare Bolt app that only acks, in the same run and process. Two
 * mixes: `help`/`status` (answered from Worklink's own store) and `list`/`task <id>`/`add
 * <title>` (each calls the service: the channel is linked to the demo's project), at each
 * --concurrency (a busy workspace produces 8–32 at once). Prints p50/p99 of the time to the
 * HTTP response (the ack) against bare Bolt, and for Worklink the time until the follow-up
 * reached Slack (response_url, or the card of a `/work add`), each beside its aim.
 *
 * What runs where: this process holds Worklink and the bare Bolt app only. The service, the
 * fake Slack and the load generator (a worker thread signing and sending the bursts) run in a
 * child process (bench/ack-slack-side.ts), as in production the service and Slack are remote:
 * the CPU per command printed for this process is Worklink's own. `--in-process` puts them all
 * in this process again (how the bench measured until round 5; the load generator stays a
 * worker thread).
 *
 *   npm run bench:ack [-- --samples 1000 --concurrency 8,32,200 --mix list --runs 3 --warmup 1000 --in-process]
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:ack -- …   # a profile of this process per row
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { App, HTTPReceiver } from '@slack/bolt';
import { createLogger } from '../src/logger.js';
import { startWorklink } from '../src/slack/start/worklink.js';
import {
  BOT_TOKEN,
  SIGNING_SECRET,
  SLACK_USERS,
  saveVerifiedConnection,
  TEST_WAITS,
} from '../test/support/harness.js';
import { quietLogger } from '../test/support/quiet-logger.js';
import { SureWorkClient } from '../test/support/sure-work.js';
import { type SlackSide, spawnSlackSide, startSlackSide } from './ack-slack-side.js';
import { Breakdown } from './breakdown.js';
import { BurstProfiler } from './cpu-profile.js';

const BARE_SECRET = 'bare-signing-secret';

// ── Main: the servers and the figures ───────────────────────────────────────

async function startBareBolt(slackApiUrl: string) {
  const app = new App({
    token: 'xoxb-bare',
    botId: 'B_BARE',
    botUserId: 'U_BARE',
    receiver: new HTTPReceiver({ signingSecret: BARE_SECRET, logger: quietLogger }),
    clientOptions: { slackApiUrl },
    logger: quietLogger,
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

/** One run of a row, for the summary of several. */
interface RowFigures {
  ackP50: number;
  ackP99: number;
  replyP50: number;
  replyP99: number;
  cpu: number;
}

/** min / median / max of each figure over a row's runs, beside its aim. */
function summary(mix: string, concurrency: number, runs: RowFigures[]): string[] {
  const mmm = (pick: (r: RowFigures) => number, digits: number) => {
    const v = runs.map(pick).sort((a, b) => a - b);
    const mid = v[Math.floor((v.length - 1) / 2)] ?? Number.NaN;
    return [v[0], mid, v[v.length - 1]].map((x) => (x ?? Number.NaN).toFixed(digits)).join(' / ');
  };
  return [
    `\n${mix} × ${concurrency} concurrent, ${runs.length} runs (min / median / max):`,
    `  ack / bare p50 ×${mmm((r) => r.ackP50, 2)}, p99 ×${mmm((r) => r.ackP99, 2)}   (aim ≤ ×1.2 both)`,
    `  reply p50 ${mmm((r) => r.replyP50, 0)} ms, p99 ${mmm((r) => r.replyP99, 0)} ms   (aim p50 ≤ 250, p99 ≤ 600)`,
    `  Worklink's CPU per command ${mmm((r) => r.cpu, 2)} ms`,
  ];
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
      // A mix of one's own instead: command texts separated by ';' ({task}: the demo
      // project's first task, {id}: the request's id), e.g. --commands 'list' or 'task {task}'.
      commands: { type: 'string' },
      // Commands sent to each app before a row is measured.
      warmup: { type: 'string', default: '1000' },
      // Each row measured this many times in a row, then min / median / max printed.
      runs: { type: 'string', default: '1' },
      // Leaves out where Worklink's time went (bench/breakdown.ts).
      brief: { type: 'boolean', default: false },
      // The service, fake Slack and load generator in this process (as until round 5).
      'in-process': { type: 'boolean', default: false },
    },
  });
  const samples = Number(values.samples);
  const levels = String(values.concurrency).split(',').map(Number);
  const runs = Math.max(1, Number(values.runs) || 1);
  const warmup = Number(values.warmup) || 0;
  const inProcess = values['in-process'];

  const side: SlackSide = inProcess ? await startSlackSide() : await spawnSlackSide();
  const { info } = side;
  const dataDir = mkdtempSync(join(tmpdir(), 'worklink-bench-ack-'));
  const worklink = await startWorklink({
    config: {
      slack: { mode: 'http', botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET },
      slackApiUrl: info.apiUrl,
      port: 0,
      dataDir,
      logLevel: 'error', // measure the app, not debug logging
      waits: TEST_WAITS,
    },
    host: '127.0.0.1',
    port: 0,
    serviceUrls: info.serviceUrls,
    logger: createLogger('error'),
  });
  const work = new SureWorkClient({ ...info.serviceUrls, apiKey: info.apiKey });
  await saveVerifiedConnection(worklink.store, info, SLACK_USERS.alice.id, work);
  await worklink.store.channelProjects.link(
    'T_TEST',
    'C_GENERAL',
    info.projectId,
    SLACK_USERS.alice.id,
  );
  const own = values.commands
    ?.split(';')
    .map((c) => c.trim().replace('{task}', info.firstTaskId))
    .filter(Boolean);
  const mixes = own?.length
    ? [{ name: own.join(', '), commands: own }]
    : [
        { name: 'help, status', commands: ['help', 'status'] },
        {
          name: 'list, task, add',
          commands: ['list', `task ${info.firstTaskId}`, 'add Benchmark task {id}'],
        },
      ];
  const bare = await startBareBolt(info.apiUrl);
  const portOf = (url: string) => Number(new URL(url).port);
  const where = inProcess
    ? "Worklink's, the service's, fake Slack's and the load generator's, all in this process"
    : `Worklink's alone: this process (pid ${process.pid}) holds Worklink and the bare Bolt app, idle meanwhile`;
  const breakdown = new Breakdown(
    new Map([
      [portOf(worklink.eventsUrl), 'Worklink'],
      [portOf(info.serviceUrls.baseUrl), 'service'],
      [portOf(info.serviceUrls.altUrl), 'service'],
      [portOf(info.apiUrl), 'fake Slack'],
      [portOf(bare.url), 'bare Bolt'],
    ]),
    where,
  );
  breakdown.countStoreCalls(worklink.store);
  const profiler = new BurstProfiler(process.env.BENCH_CPU_PROF);
  const run = (url: string, signingSecret: string, concurrency: number, commands: string[]) =>
    side.burst({ url, signingSecret, concurrency, commands }, url === worklink.eventsUrl);

  console.log(
    `/work ack latency: signed slash commands in bursts, ${samples} samples per row (rounds of one burst). Aims: ack ≤ ×1.2 bare Bolt at p50 and p99; reply p50 ≤ 250 ms, p99 ≤ 600 ms.`,
  );
  console.log(
    inProcess
      ? 'Where: Worklink, bare Bolt, the service, fake Slack and the load generator (a worker thread) all in this process (--in-process).'
      : `Where: Worklink and bare Bolt in this process (pid ${process.pid}); the service, fake Slack and the load generator (a worker thread) in a child process (pid ${info.pid}), as remote parts are in production.`,
  );
  for (const mix of own?.length ? mixes : mixes.filter((m) => m.name.includes(values.mix))) {
    for (const concurrency of levels) {
      // Warm-up (JIT, pools, caches, SQLite pages), not measured: --warmup commands to each.
      // One burst was too little: right after it a row measured ~50 % more CPU per command
      // than the same row after a few thousand commands.
      for (let sent = 0; sent < Math.max(warmup, 1); sent += concurrency) {
        await run(bare.url, BARE_SECRET, concurrency, mix.commands);
        await run(worklink.eventsUrl, SIGNING_SECRET, concurrency, mix.commands);
      }

      const figures: RowFigures[] = [];
      for (let n = 0; n < runs; n++) {
        const bareAcks: number[] = [];
        const workAcks: number[] = [];
        const workReplies: number[] = [];
        breakdown.clear();
        await side.clear();
        profiler.clear();
        const rounds = Math.max(3, Math.ceil(samples / concurrency));
        // One profile per row: starting the profiler blocks the loop ~100 ms (it lists all code).
        await profiler.start();
        let bareCpuUs = 0;
        for (let r = 0; r < rounds; r++) {
          const cpu = process.cpuUsage();
          bareAcks.push(...(await run(bare.url, BARE_SECRET, concurrency, mix.commands)).acks);
          const used = process.cpuUsage(cpu);
          bareCpuUs += used.user + used.system;
          breakdown.resume();
          await side.resume();
          const w = await run(worklink.eventsUrl, SIGNING_SECRET, concurrency, mix.commands);
          await side.pause();
          breakdown.pause();
          workAcks.push(...w.acks);
          workReplies.push(...w.replies);
        }
        await profiler.stop(`${mix.commands[0]}-${concurrency}`);
        const b = stats(bareAcks);
        const w = stats(workAcks);
        const f = stats(workReplies);
        const load = loadavg()
          .map((l) => l.toFixed(2))
          .join(', ');
        const runNote = runs > 1 ? `, run ${n + 1} of ${runs}` : '';
        console.log(`\n${mix.name} × ${concurrency} concurrent${runNote} (load average ${load})`);
        console.log(
          `  bare Bolt, ack only      p50 ${ms(b.p50)}  p99 ${ms(b.p99)}  n=${b.n}; CPU ${(bareCpuUs / 1000 / b.n).toFixed(2)} ms per ack (this process)`,
        );
        console.log(`  Worklink ack             p50 ${ms(w.p50)}  p99 ${ms(w.p99)}  n=${w.n}`);
        console.log(
          `  Worklink / bare          p50 ×${(w.p50 / b.p50).toFixed(2)}     p99 ×${(w.p99 / b.p99).toFixed(2)}   (aim ≤ ×1.2 both)`,
        );
        console.log(
          `  Worklink reply posted    p50 ${ms(f.p50)}  p99 ${ms(f.p99)}  (send → response_url or card; aim p50 ≤ 250, p99 ≤ 600)`,
        );
        if (!values.brief) {
          console.log(`  — Worklink's process —\n${breakdown.report(workAcks.length).join('\n')}`);
          const other = await side.report(workAcks.length);
          if (other.length) console.log(`  — the other side's process —\n${other.join('\n')}`);
        }
        if (profiler.enabled) console.log(profiler.top().join('\n'));
        figures.push({
          ackP50: w.p50 / b.p50,
          ackP99: w.p99 / b.p99,
          replyP50: f.p50,
          replyP99: f.p99,
          cpu: breakdown.cpuPerCommand(workAcks.length),
        });
      }
      if (runs > 1) console.log(summary(mix.name, concurrency, figures).join('\n'));
    }
  }

  breakdown.stop();
  await profiler.close();
  await bare.stop();
  await worklink.stop();
  await side.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
