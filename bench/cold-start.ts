/**
 * Cold start of the Slack app as production runs it (`npm run build`, then
 * `node dist/app/main.mjs start`, see docs/operations.md): the time from spawning the process to its
 * "Worklink is listening" line, in HTTP mode with the embedded service, against a fake Slack
 * Web API (the app checks its bot token before listening). Runs --runs times on a fresh
 * DATA_DIR (first start: creates the databases and the key) and --runs times on a kept one
 * (a restart), beside a floor — a bare Bolt HTTP app in its own `node` process, started the
 * same way — in the same run. Prints median and max per case and the ratio to the floor.
 * --slack-latency MS makes the fake Slack answer auth.test after MS (a server's round trip to
 * Slack is 100–300 ms): Worklink checks its token before it listens, bare Bolt does not.
 *
 *   npm run build && npm run bench:cold-start [-- --runs 10] [--slack-latency 150]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeSlack } from '../test/support/fake-slack.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    'slack-latency': { type: 'string', default: '0' },
  },
});
const RUNS = Number(values.runs);
const SLACK_LATENCY_MS = Number(values['slack-latency']);
const ENTRY = 'dist/app/main.mjs';

/** Spawns `args` and resolves with the ms until a line matching `ready` was written. */
function timeToReady(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) {
        const ms = performance.now() - started;
        child.kill('SIGTERM');
        child.once('exit', () => resolve(ms));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      if (!ready.test(seen)) reject(new Error(`exited with ${code} before ready:\n${seen}`));
    });
  });
}

const BARE_BOLT = `
const { App } = require('@slack/bolt');
const app = new App({ token: 'xoxb-bare', signingSecret: 'bare', clientOptions: { slackApiUrl: process.env.SLACK_API_URL } });
app.start({ port: 0, host: '127.0.0.1' }).then(() => console.log('bare bolt listening'));
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run npm run build first.`);
  const fake = await startFakeSlack();
  if (SLACK_LATENCY_MS > 0) fake.script('auth.test', () => ({ delayMs: SLACK_LATENCY_MS }));
  const dirs: string[] = [];
  const env = (dataDir: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    SLACK_BOT_TOKEN: 'xoxb-cold-start',
    SLACK_SIGNING_SECRET: 'cold-start-signing-secret',
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  });
  const freshDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'worklink-cold-'));
    dirs.push(d);
    return d;
  };
  const ready = /Worklink is listening/;
  try {
    const kept = freshDir();
    // Warm-up: the OS file cache, not measured.
    await timeToReady([ENTRY, 'start'], env(kept), ready);
    const first: number[] = [];
    const restart: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      first.push(await timeToReady([ENTRY, 'start'], env(freshDir()), ready));
      restart.push(await timeToReady([ENTRY, 'start'], env(kept), ready));
      floor.push(await timeToReady(['-e', BARE_BOLT], env(kept), /bare bolt listening/));
    }
    const row = (name: string, xs: number[]) =>
      console.log(
        `  ${name.padEnd(34)} median ${median(xs).toFixed(0).padStart(4)} ms  max ${Math.max(...xs)
          .toFixed(0)
          .padStart(4)} ms  ×${(median(xs) / median(floor)).toFixed(2)} of the floor`,
      );
    console.log(
      `Cold start to ready, ${RUNS} runs each (node ${process.version}; Slack answers auth.test in ${SLACK_LATENCY_MS} ms):`,
    );
    row('floor: bare Bolt HTTP app', floor);
    row('Worklink, first start (new DATA_DIR)', first);
    row('Worklink, restart (same DATA_DIR)', restart);
    console.log('  aim: at most 400 ms to ready and at most ×2 of the floor');
  } finally {
    await fake.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
