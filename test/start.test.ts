/**
 * `worklink start` as a real process: a wrong setting prints one sentence (no stack) and
 * exits 1; a refused bot token likewise; a good configuration serves signed commands and
 * stops cleanly on SIGTERM; Slack checks the token while the store opens.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from './support/fake-slack.js';
import { waitFor } from './support/harness.js';
import { SlackRequests } from './support/slack-requests.js';
import { runWorklink } from './support/worklink-process.js';

const root = new URL('../', import.meta.url).pathname;

// node --import tsx, not the tsx CLI: its signal relay adds a process and timing of its own.
const run = (env: Record<string, string>) =>
  runWorklink(['--import', 'tsx', 'src/main.ts', 'start'], env, { cwd: root, started: children });

let dir: string;
let fake: FakeSlack;
const children: ChildProcess[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'worklink-start-'));
  fake = await startFakeSlack({ tokens: ['xoxb-good'] });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('start', () => {
  it('stops on a partial setting with one sentence naming the variable', async () => {
    const p = run({ SLACK_BOT_TOKEN: 'xoxb-good', DATA_DIR: dir });
    expect(await p.exited).toBe(1);
    expect(p.out.stderr).toBe(
      'worklink: SLACK_BOT_TOKEN is set but SLACK_SIGNING_SECRET or SLACK_APP_TOKEN is missing: HTTP mode needs SLACK_SIGNING_SECRET, Socket Mode needs SLACK_APP_TOKEN.\n',
    );
  });

  it('stops when Slack refuses the bot token, without a stack trace', async () => {
    const p = run({
      SLACK_BOT_TOKEN: 'xoxb-bad',
      SLACK_SIGNING_SECRET: 'sig',
      SLACK_API_URL: fake.apiUrl,
      PORT: '0',
      DATA_DIR: join(dir, 'refused'),
      LOG_LEVEL: 'error',
    });
    expect(await p.exited).toBe(1);
    expect(p.out.stderr).toBe('worklink: SLACK_BOT_TOKEN was refused by Slack (invalid_auth).\n');
  });

  it('stops in one sentence when Slack cannot be reached to check the token', async () => {
    // A port nothing listens on: every attempt is refused.
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const p = run({
      SLACK_BOT_TOKEN: 'xoxb-good',
      SLACK_SIGNING_SECRET: 'sig',
      SLACK_API_URL: `http://127.0.0.1:${port}/api/`,
      PORT: '0',
      DATA_DIR: join(dir, 'unreachable'),
      LOG_LEVEL: 'error',
    });
    expect(await p.exited).toBe(1);
    expect(p.out.stderr).toMatch(
      /^worklink: Slack could not be reached to check SLACK_BOT_TOKEN \([^\n]+\)\.\n$/,
    );
  });

  it('serves signed commands with the embedded service and stops on SIGTERM', async () => {
    const p = run({
      SLACK_BOT_TOKEN: 'xoxb-good',
      SLACK_SIGNING_SECRET: 'sig-for-start',
      SLACK_API_URL: fake.apiUrl,
      PORT: '0',
      DATA_DIR: join(dir, 'good'),
      LOG_LEVEL: 'info',
    });
    const eventsUrl = await waitFor(
      () => /listening on (\S+\/slack\/events)/.exec(p.out.stderr)?.[1],
      { timeoutMs: 20_000 },
    );
    expect(p.out.stderr).toContain('Embedded work-management service at http://127.0.0.1:');
    const slack = new SlackRequests({ url: eventsUrl, signingSecret: 'sig-for-start', fake });
    const res = await slack.slashCommand('help');
    expect(res.status).toBe(200);
    const reply = await fake.waitForResponse((r) => res.responseUrl?.endsWith(r.id) ?? false);
    expect(String(reply.body.text)).toContain('What you can do with Worklink');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('asks Slack to check the token while the store is still opening', async () => {
    // A PostgreSQL address that takes connections and never answers: the store stays opening
    // until the test drops them. A start that opened the store before asking Slack would
    // never ask here.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const port = (silent.address() as AddressInfo).port;
    fake.reset();
    try {
      const p = run({
        SLACK_BOT_TOKEN: 'xoxb-good',
        SLACK_SIGNING_SECRET: 'sig-for-overlap',
        SLACK_API_URL: fake.apiUrl,
        PORT: '0',
        DATA_DIR: join(dir, 'overlap'),
        DATABASE_URL: `postgres://worklink@127.0.0.1:${port}/worklink`,
        SECRETS_KEY: '11'.repeat(32),
        LOG_LEVEL: 'error',
      });
      await fake.waitForCall('auth.test');
      await waitFor(() => held.length > 0, { timeoutMs: 20_000 });
      for (const socket of held) socket.destroy();
      expect(await p.exited).toBe(1);
      expect(p.out.stderr).toMatch(
        /^worklink: The PostgreSQL database at DATABASE_URL could not be opened: [^\n]+\.\n$/,
      );
    } finally {
      silent.close();
    }
  });
});
