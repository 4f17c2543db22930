/**
 * Memory of the Slack app under commands: RSS and heap when idle after start, after
 * --commands signed `/work` commands (list, task, add, help, status; bursts of --burst at
 * once), and after --idle seconds of rest (with a full GC, to tell what is held from what is
 * only not yet returned). The app runs in a child process bundled by esbuild as the
 * production build is (dist/bench-memory/), HTTP mode with the embedded service and a fake Slack Web
 * API in that process, as in the tests; the load comes from this process. --snapshot DIR
 * writes heap snapshots of the child (idle and after the commands) and an allocation
 * sampling profile of the commands, for DevTools.
 *
 *   npm run bench:memory [-- --commands 10000 --idle 60 --snapshot /tmp]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { build } from 'esbuild';

/** What the child tells of its memory (MB). */
interface Usage {
  rss: number;
  /** The V8 heap's committed size, and the part of it in use. */
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

type Ask =
  | { ask: 'usage'; gc: boolean }
  | { ask: 'settle'; answers: number }
  | { ask: 'snapshot'; dir: string }
  | { ask: 'sample'; dir?: string }
  | { ask: 'stop' };

const MB = 1024 * 1024;
const usage = (): Usage => {
  const u = process.memoryUsage();
  return {
    rss: u.rss / MB,
    heapTotal: u.heapTotal / MB,
    heapUsed: u.heapUsed / MB,
    external: u.external / MB,
    arrayBuffers: u.arrayBuffers / MB,
  };
};

// ── Child: the app ──────────────────────────────────────────────────────────

async function child() {
  const { startHarness } = await import('../test/support/harness.js');
  const h = await startHarness({ connect: true, logLevel: 'error' });
  const { projectId } = h.seed.projects[0]!;
  await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', projectId, h.users.alice.id);
  const [task] = await h.work.listTasks({ projectId });
  const gc = globalThis.gc;
  const session = new Session();
  session.connect();
  process.on('message', async (m: Ask) => {
    if (m.ask === 'usage') {
      if (m.gc && gc) gc();
      process.send?.(usage());
    } else if (m.ask === 'settle') {
      // Each command is answered by a response_url post or (add) its card: wait for the
      // burst's answers, then drop what the fake Slack recorded (the bench's, not the app's).
      const answered = () =>
        h.fake.responses.length + h.fake.callsOf('chat.postMessage').length >= m.answers;
      await h.waitFor(answered, { timeoutMs: 60_000 }).catch(() => {});
      const got = h.fake.responses.length + h.fake.callsOf('chat.postMessage').length;
      h.fake.reset();
      process.send?.(got);
    } else if (m.ask === 'sample') {
      // Allocation sampling (DevTools' "Allocation sampling"): started, or stopped and written.
      if (!m.dir) {
        await session.post('HeapProfiler.startSampling', {
          samplingInterval: 32_768,
          // Every allocation, not only what is still alive: garbage is what grows the heap.
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: true,
        });
        process.send?.('sampling');
      } else {
        const { profile } = await session.post('HeapProfiler.stopSampling');
        const file = join(m.dir, `worklink-${Date.now()}.heapprofile`);
        writeFileSync(file, JSON.stringify(profile));
        process.send?.(file);
      }
    } else if (m.ask === 'snapshot') {
      gc?.();
      process.send?.(writeHeapSnapshot(join(m.dir, `worklink-${Date.now()}.heapsnapshot`)));
    } else {
      await h.stop();
      process.exit(0);
    }
  });
  process.send?.({
    url: h.worklink.eventsUrl,
    secret: h.config.slack.mode === 'http' ? h.config.slack.signingSecret : '',
    responseBase: h.fake.url,
    users: Object.values(h.users).map((u) => u.id),
    taskId: task!.taskId,
  });
}

// ── Parent: the load and the figures ────────────────────────────────────────

async function ask<T>(app: ChildProcess, m: Ask): Promise<T> {
  app.send(m);
  const [reply] = (await once(app, 'message')) as [T];
  return reply;
}

const fmt = (u: Usage) =>
  `RSS ${u.rss.toFixed(0).padStart(4)} MB  heap ${u.heapUsed.toFixed(0).padStart(4)} of ${u.heapTotal.toFixed(0).padStart(4)} MB  external ${u.external.toFixed(0).padStart(3)} MB (buffers ${u.arrayBuffers.toFixed(0)})`;

async function parent() {
  const { values } = parseArgs({
    options: {
      commands: { type: 'string', default: '10000' },
      burst: { type: 'string', default: '50' },
      idle: { type: 'string', default: '60' },
      snapshot: { type: 'string' },
      // V8 flags for the app, e.g. --v8=--max-semi-space-size=4 (how heap sizing changes RSS).
      v8: { type: 'string', default: '' },
    },
  });
  // The child bundled as `npm run build` bundles the app (scripts/build.ts): one file, not
  // hundreds of modules compiled on the fly by tsx, whose caches would count as the app's.
  const out = 'dist/bench-memory';
  await build({
    entryPoints: { memory: 'bench/memory.ts' },
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3', 'pg', 'pg-native', 'pino-pretty'],
    banner: {
      js: "import { createRequire as __worklinkRequire } from 'node:module'; const require = __worklinkRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const app = fork(join(out, 'memory.mjs'), ['--child'], {
    execArgv: ['--expose-gc', ...String(values.v8).split(' ').filter(Boolean)],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const [hello] = (await once(app, 'message')) as [
    { url: string; secret: string; responseBase: string; users: string[]; taskId: string },
  ];
  const { SlackRequests } = await import('../test/support/slack-requests.js');
  let nextId = '';
  const slack = new SlackRequests({
    url: hello.url,
    signingSecret: hello.secret,
    responseUrl: () => `${hello.responseBase}/response/${nextId}`,
  });
  const mix = ['list', `task ${hello.taskId}`, 'add Memory task {id}', 'help', 'status'];
  const total = Number(values.commands);
  const burst = Number(values.burst);
  const snapshot = async (when: string) => {
    if (!values.snapshot) return;
    console.log(
      `  heap snapshot (${when}): ${await ask<string>(app, { ask: 'snapshot', dir: values.snapshot })}`,
    );
  };

  console.log(
    `Memory of the app process (production build, embedded service and fake Slack inside${values.v8 ? `; ${values.v8}` : ''}): ${total} commands in bursts of ${burst}. Aim: RSS idle ≤ 100 MB, after the commands ≤ 200 MB.`,
  );
  const idle = await ask<Usage>(app, { ask: 'usage', gc: false });
  console.log(`  idle after start              ${fmt(idle)}`);
  await snapshot('idle');
  if (values.snapshot) await ask(app, { ask: 'sample' });
  let failed = 0;
  let unanswered = 0;
  for (let sent = 0; sent < total; sent += burst) {
    await Promise.all(
      Array.from({ length: Math.min(burst, total - sent) }, async (_, i) => {
        const id = randomUUID();
        nextId = id;
        const text = mix[(sent + i) % mix.length]!.replace('{id}', id);
        const res = await slack.slashCommand(text, {
          userId: hello.users[(sent + i) % hello.users.length],
        });
        if (res.status !== 200) failed++;
      }),
    );
    // The next burst once this one is answered (the app's pace, not a flood).
    const n = Math.min(burst, total - sent);
    unanswered += Math.max(0, n - (await ask<number>(app, { ask: 'settle', answers: n })));
  }
  const after = await ask<Usage>(app, { ask: 'usage', gc: false });
  if (values.snapshot) {
    const file = await ask<string>(app, { ask: 'sample', dir: values.snapshot });
    console.log(`  allocation sampling of the commands: ${file}`);
  }
  console.log(
    `  after ${String(total).padEnd(6)} commands        ${fmt(after)}${failed ? `  (${failed} not acked)` : ''}${unanswered ? `  (${unanswered} unanswered in 60 s)` : ''}`,
  );
  await snapshot('after the commands');
  await new Promise((r) => setTimeout(r, Number(values.idle) * 1000));
  const rested = await ask<Usage>(app, { ask: 'usage', gc: true });
  console.log(`  after ${values.idle} s idle and a full GC  ${fmt(rested)}`);
  console.log(
    `  aim: idle ≤ 100 MB (${idle.rss <= 100 ? 'met' : 'not met'}), after the commands ≤ 200 MB (${after.rss <= 200 ? 'met' : 'not met'})`,
  );
  app.send({ ask: 'stop' } satisfies Ask);
  await Promise.race([once(app, 'exit'), new Promise((r) => setTimeout(r, 10_000))]);
  app.kill();
}

if (process.argv.includes('--child')) {
  await child();
} else {
  await parent();
  process.exit(0);
}
