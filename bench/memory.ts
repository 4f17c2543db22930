/**
 * Memory of the Slack app as production runs it: the production build (`npm run build`,
 * scripts/build.ts, built here into dist/bench-memory/) started as `node main.mjs start` in
 * HTTP mode, a process of its own. The work-management service (the embedded one, seeded
 * with the demo workspace) and a fake Slack Web API run in this process, as they are remote
 * in production; so does the load: --commands signed `/work` commands (list, task, add,
 * help, status) in bursts of --burst, each burst answered before the next.
 *
 * Printed, each beside its aim: RSS and what holds it (V8's heap by space, memory outside
 * it) idle after start, after the commands, and after --idle seconds of rest and a full GC
 * (what is held, against what is only not yet returned). The figures come from a probe
 * loaded into the app with `--import` (bench/memory-probe.ts) over the IPC channel.
 *
 *   npm run bench:memory [-- --commands 10000 --idle 60]
 *     --embedded        the service inside the app's process (production without WORK_API_URL)
 *     --maps            resident memory by mapping (files, malloc's heap, anonymous) idle and after
 *     --snapshot DIR    heap snapshots (idle, after) and an allocation sampling of the commands
 *     --v8 '<flags>'    V8 flags for the app, e.g. --v8=--max-semi-space-size=1
 *     --env K=V,K=V     more environment for the app, e.g. --env MALLOC_ARENA_MAX=2
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { type ServiceHandle, seedDemoWorkspace, startService } from '../src/service/index.js';
import { openStore } from '../src/store/index.js';
import { startFakeSlack } from '../test/support/fake-slack.js';
import { SLACK_USERS, saveVerifiedConnection, TEAM_ID, waitFor } from '../test/support/harness.js';
import { SlackRequests } from '../test/support/slack-requests.js';
import { SureWorkClient } from '../test/support/sure-work.js';
import type { ProbeAsk, ProbeUsage } from './memory-probe.js';

const { values } = parseArgs({
  options: {
    commands: { type: 'string', default: '10000' },
    burst: { type: 'string', default: '50' },
    idle: { type: 'string', default: '60' },
    embedded: { type: 'boolean', default: false },
    snapshot: { type: 'string' },
    maps: { type: 'boolean', default: false },
    v8: { type: 'string', default: '' },
    env: { type: 'string', default: '' },
  },
});
const OUT = 'dist/bench-memory';
const SIGNING_SECRET = 'bench-memory-signing-secret';
const BOT_TOKEN = 'xoxb-bench-memory';
const AIM = { idle: 100, after: 200 };

/** The production build, as `npm run build` makes it, plus the probe beside it. */
async function buildApp(): Promise<void> {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out', OUT], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stderr}`);
  await build({
    entryPoints: { probe: 'bench/memory-probe.ts' },
    outdir: OUT,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}

/** The demo workspace in `dataDir/service.db`, and the team connected to it in the app's store. */
async function prepare(
  dataDir: string,
  secretsKey: Buffer,
): Promise<{ service: ServiceHandle; taskId: string }> {
  const service = await startService({
    dbPath: join(dataDir, 'service.db'),
    port: 0,
    host: '127.0.0.1',
  });
  const seed = seedDemoWorkspace(service.db);
  const work = new SureWorkClient({
    baseUrl: service.baseUrl,
    altUrl: service.altUrl,
    apiKey: seed.apiKey,
  });
  const store = openStore(dataDir, { secretsKey });
  const { projectId } = seed.projects[0]!;
  await saveVerifiedConnection(store, seed, SLACK_USERS.alice.id, work);
  await store.channelProjects.link(TEAM_ID, 'C_GENERAL', projectId, SLACK_USERS.alice.id);
  await store.close();
  const [task] = await work.listTasks({ projectId });
  return { service, taskId: task!.taskId };
}

function ask<T>(app: ChildProcess, m: ProbeAsk): Promise<T> {
  app.send(m);
  return once(app, 'message').then(([reply]) => reply as T);
}

const mb = (n: number) => `${n.toFixed(0).padStart(4)} MB`;
/** RSS against its aim, then what holds it: code and files, V8's heap by space, the rest. */
function row(name: string, u: ProbeUsage, aim?: number): string {
  const s = u.spaces;
  const heapParts = `new ${s.new?.toFixed(0)}, old ${s.old?.toFixed(0)}, code ${s.code?.toFixed(0)}, large ${s.large_object?.toFixed(0)}`;
  const verdict = aim === undefined ? '' : `  aim ≤ ${aim} MB: ${u.rss <= aim ? 'met' : 'NOT met'}`;
  return [
    `  ${name.padEnd(34)} RSS ${mb(u.rss)}${verdict}`,
    `      file-backed (code) ${mb(u.rssFile)}; anonymous ${mb(u.rssAnon)} = V8 heap ${mb(u.heapTotal)} committed (${heapParts}; ${u.heapUsed.toFixed(0)} MB in use) + outside the heap ${mb(u.rssAnon - u.heapTotal)} (external ${u.external.toFixed(0)} MB, buffers ${u.arrayBuffers.toFixed(0)} MB)`,
  ].join('\n');
}

async function main() {
  await buildApp();
  const dataDir = mkdtempSync(join(tmpdir(), 'worklink-memory-'));
  const secretsKey = randomBytes(32);
  const fake = await startFakeSlack({ teamId: TEAM_ID, users: Object.values(SLACK_USERS) });
  const { service, taskId } = await prepare(dataDir, secretsKey);
  // --embedded: the app starts the service itself on the same file (production without
  // WORK_API_URL); else it talks to this process's service as to an external one.
  if (values.embedded) await service.close();
  const eventsSecret = 'bench-memory-events-secret';
  const extraEnv = Object.fromEntries(
    String(values.env)
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  const app = fork(join(OUT, 'main.mjs'), ['start'], {
    execArgv: [
      '--expose-gc',
      '--import',
      pathToFileURL(resolve(OUT, 'probe.mjs')).href,
      ...String(values.v8).split(' ').filter(Boolean),
    ],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      PORT: '0',
      DATA_DIR: dataDir,
      SECRETS_KEY: secretsKey.toString('hex'),
      LOG_LEVEL: 'info',
      ...(values.embedded
        ? {}
        : {
            WORK_API_URL: service.baseUrl,
            WORK_ALT_API_URL: service.altUrl,
            WORK_EVENTS_SECRET: eventsSecret,
          }),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const keep = (d: Buffer) => {
    // The start's lines are kept (the address); the rest is read and dropped.
    if (output.length < 100_000) output += d;
  };
  app.stdout?.on('data', keep);
  app.stderr?.on('data', keep);
  const exited = once(app, 'exit');
  try {
    const eventsUrl = await waitFor(() => /listening on (\S+\/slack\/events)/.exec(output)?.[1], {
      timeoutMs: 30_000,
    }).catch(() => {
      throw new Error(`The app did not start:\n${output}`);
    });
    if (!values.embedded) {
      // As an external service configured to deliver its events to the app.
      service.setEventsSubscriber({
        url: eventsUrl.replace('/slack/events', '/work/events'),
        secret: eventsSecret,
      });
    }
    await run(app, eventsUrl, fake, taskId);
  } finally {
    app.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    app.kill('SIGKILL');
    if (!values.embedded) await service.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function run(
  app: ChildProcess,
  eventsUrl: string,
  fake: Awaited<ReturnType<typeof startFakeSlack>>,
  taskId: string,
) {
  const slack = new SlackRequests({
    url: eventsUrl,
    signingSecret: SIGNING_SECRET,
    fake,
    teamId: TEAM_ID,
  });
  const users = Object.values(SLACK_USERS).map((u) => u.id);
  const mix = ['list', `task ${taskId}`, 'add Memory task {n}', 'help', 'status'];
  const total = Number(values.commands);
  const burst = Number(values.burst);
  const snapshot = async (when: string) => {
    if (!values.snapshot) return;
    const file = await ask<string>(app, { ask: 'snapshot', dir: values.snapshot });
    console.log(`  heap snapshot (${when}): ${file}`);
  };
  const showMaps = async () => {
    if (!values.maps) return;
    const top = (await ask<[string, number][]>(app, { ask: 'maps' })).filter(
      ([, rss]) => rss >= 0.5,
    );
    for (const [name, rss] of top.slice(0, 12)) console.log(`      ${mb(rss)}  ${name}`);
  };
  const load = () =>
    `load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`;
  const flags = [values.embedded ? 'service inside' : '', values.v8, values.env]
    .filter(Boolean)
    .join('; ');
  console.log(
    `Memory of the production build (${OUT}/main.mjs start, HTTP mode) as a process of its own${flags ? ` (${flags})` : ''}; service and fake Slack in the bench's process. ${total} commands in bursts of ${burst}. ${load()}`,
  );
  const idle = await ask<ProbeUsage>(app, { ask: 'usage', gc: false });
  console.log(row('idle after start', idle, AIM.idle));
  await showMaps();
  await snapshot('idle');
  if (values.snapshot) await ask(app, { ask: 'sample' });
  let failed = 0;
  let unanswered = 0;
  const started = performance.now();
  for (let sent = 0; sent < total; sent += burst) {
    const n = Math.min(burst, total - sent);
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const text = mix[(sent + i) % mix.length]!.replace('{n}', String(sent + i));
        const res = await slack.slashCommand(text, { userId: users[(sent + i) % users.length] });
        if (res.status !== 200) failed++;
      }),
    );
    // Each command is answered by a response_url post or (add) its card: the next burst once
    // this one is answered (the app's pace, not a flood); then the fake forgets them.
    const answered = () => fake.responses.length + fake.callsOf('chat.postMessage').length;
    await waitFor(() => answered() >= n, { timeoutMs: 60_000 }).catch(() => {});
    unanswered += Math.max(0, n - answered());
    fake.reset();
  }
  const seconds = (performance.now() - started) / 1000;
  const after = await ask<ProbeUsage>(app, { ask: 'usage', gc: false });
  if (values.snapshot) {
    console.log(
      `  allocation sampling of the commands: ${await ask<string>(app, { ask: 'sample', dir: values.snapshot })}`,
    );
  }
  const problems = `${failed ? `  (${failed} not acked)` : ''}${unanswered ? `  (${unanswered} unanswered in 60 s)` : ''}`;
  console.log(
    row(`after ${total} commands (${seconds.toFixed(0)} s)`, after, AIM.after) + problems,
  );
  const young = after.gc.young - idle.gc.young;
  const full = after.gc.full - idle.gc.full;
  console.log(
    `      app CPU ${((after.cpuMs - idle.cpuMs) / total).toFixed(2)} ms per command; GC pauses ${(after.gc.youngMs - idle.gc.youngMs).toFixed(0)} ms in ${young} scavenges, ${(after.gc.fullMs - idle.gc.fullMs).toFixed(0)} ms in ${full} full GCs; ${load()}`,
  );
  await showMaps();
  await snapshot('after the commands');
  await new Promise((r) => setTimeout(r, Number(values.idle) * 1000));
  console.log(
    row(
      `after ${values.idle} s idle`,
      await ask<ProbeUsage>(app, { ask: 'usage', gc: false }),
      AIM.after,
    ),
  );
  console.log(
    row('  and a full GC', await ask<ProbeUsage>(app, { ask: 'usage', gc: true }), AIM.after),
  );
}

await main();
process.exit(0);
