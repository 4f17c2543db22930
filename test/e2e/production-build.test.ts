/**
 * The production build (`npm run build`: esbuild, scripts/build.ts) runs as the source does:
 * built into a folder of its own, `node <out>/main.mjs start` serves signed commands with the
 * embedded service and stops on SIGTERM; with no Slack settings it serves the sandbox page
 * (its static files found from the bundle's place) and answers `/work help` there. Its files
 * are pure ASCII (what lies outside is escaped: bench/memory.ts) and mean what the source does.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { waitFor } from '../support/harness.js';
import { SlackRequests } from '../support/slack-requests.js';
import { runWorklink } from '../support/worklink-process.js';

const root = new URL('../../', import.meta.url).pathname;
const out = `dist/test-build-${process.pid}`;
let dir: string;
let fake: FakeSlack;
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'worklink-build-'));
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out', out], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(join(root, out), { recursive: true, force: true });
});

it('writes every file in ASCII (V8 holds a file with one other character at two bytes each)', () => {
  const files = readdirSync(join(root, out)).filter((f) => f.endsWith('.mjs'));
  expect(files).toContain('main.mjs');
  const other = files.filter((f) =>
    /[\u0080-\uffff]/.test(readFileSync(join(root, out, f), 'utf8')),
  );
  expect(other).toEqual([]);
});

it("runs as package.json's bin: main.mjs is executable and names its commands", () => {
  const help = spawnSync(join(root, out, 'main.mjs'), ['help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('Usage: worklink <command>');
});

const runBuilt = (env: Record<string, string>) =>
  runWorklink(
    [join(out, 'main.mjs'), 'start'],
    { NO_COLOR: '1', ...env },
    {
      cwd: root,
      started: children,
    },
  );

it('serves signed commands with the embedded service and stops on SIGTERM', async () => {
  fake = await startFakeSlack({ tokens: ['xoxb-good'] });
  const p = runBuilt({
    SLACK_BOT_TOKEN: 'xoxb-good',
    SLACK_SIGNING_SECRET: 'sig-for-build',
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    DATA_DIR: join(dir, 'http'),
    LOG_LEVEL: 'info',
  });
  const eventsUrl = await waitFor(
    () => /listening on (\S+\/slack\/events)/.exec(p.out.stderr)?.[1],
    { timeoutMs: 20_000 },
  );
  const slack = new SlackRequests({ url: eventsUrl, signingSecret: 'sig-for-build', fake });
  const res = await slack.slashCommand('help');
  expect(res.status).toBe(200);
  const reply = await fake.waitForResponse((r) => res.responseUrl?.endsWith(r.id) ?? false);
  expect(String(reply.body.text)).toContain('What you can do with Worklink');
  // An en dash, matched by a pattern whose dashes the build escaped; the answer's “…” too.
  const quiet = await slack.slashCommand('notify quiet 20:00 – 08:00');
  const set = await fake.waitForResponse((r) => quiet.responseUrl?.endsWith(r.id) ?? false);
  expect(String(set.body.text)).toContain('Quiet hours are now *20:00-08:00*');
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
});

it('serves the sandbox page when no Slack settings are given', async () => {
  const p = runBuilt({ PORT: '0', DATA_DIR: join(dir, 'sandbox'), LOG_LEVEL: 'warn' });
  const url = await waitFor(() => /open (http:\/\/\S+)/.exec(p.out.stdout)?.[1], {
    timeoutMs: 45_000,
  });
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<script type="module" src="/static/app.js"></script>');
  const script = await fetch(`${url}/static/app.js`);
  expect(script.status).toBe(200);
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
});
