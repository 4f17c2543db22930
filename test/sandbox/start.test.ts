// `npm start` as a newcomer runs it: `tsx src/main.ts start` with no Slack settings, a fresh
// DATA_DIR and PORT=0. It prints the URL, serves the page, answers `/work help` through the
// sandbox, stops with exit code 0 on SIGTERM, and a second start reuses the seeded workspace.

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'worklink-sandbox-start-'));
const running = new Set<ChildProcess>();

afterAll(() => {
  // Each child runs in its own process group: take tsx's node child down with it.
  for (const child of running) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** The environment of a machine with no Slack app configured. */
function cleanEnv(port = '0', dir = dataDir): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(SLACK_|WORK_)/.test(k) || ['PORT', 'DATA_DIR', 'SECRETS_KEY'].includes(k)) continue;
    env[k] = v;
  }
  return { ...env, PORT: port, DATA_DIR: dir, LOG_LEVEL: 'warn', NO_COLOR: '1' };
}

interface Started {
  child: ChildProcess;
  url: string;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

async function startProcess(): Promise<Started> {
  // The tsx command `npm start` runs. Not through npx: npx dies of a SIGTERM itself (no exit
  // code) and leaves the app running; tsx passes the signal on and exits with the app's code.
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['src/main.ts', 'start'], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exit = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  let exited = false;
  void exit.then(() => {
    exited = true;
  });
  const url = await waitFor(
    () => {
      if (exited) throw new Error(`worklink start exited early:\n${out}\n${err}`);
      return /open (http:\/\/\S+)/.exec(out)?.[1];
    },
    'the printed URL',
    45_000,
  );
  return { child, url, out: () => out, err: () => err, exit };
}

interface PageMessage {
  ts: string;
  text: string;
  fromBot: boolean;
  ephemeral: boolean;
}

/** Types `text` in #general as Alice and returns the app's ephemeral answer. */
async function slashCommand(url: string, text: string): Promise<PageMessage> {
  const sent = await fetch(`${url}/sandbox/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'U0SBALICE', channel: 'C0SBGENERAL', text }),
  });
  expect(sent.status).toBe(200);
  expect(await sent.json()).toMatchObject({ ok: true });
  return waitFor(
    async () => {
      const res = await fetch(`${url}/sandbox/state?user=U0SBALICE`);
      const snap = (await res.json()) as { messages: Record<string, PageMessage[]> };
      return snap.messages.C0SBGENERAL?.findLast((m) => m.fromBot && m.ephemeral);
    },
    `the answer to ${text}`,
    15_000,
  );
}

function savedSetup(): { seed: { workspaceId: string; workspaceName: string } } {
  return JSON.parse(readFileSync(join(dataDir, 'sandbox.json'), 'utf8'));
}

describe('npm start without Slack settings', () => {
  let workspaceId = '';

  it('starts the sandbox, answers /work help, and stops cleanly on SIGTERM', async () => {
    const run = await startProcess();
    expect(run.out()).toContain('/work new');
    expect(run.out()).toContain('(just created)');

    const page = await fetch(run.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Worklink sandbox');

    const help = await slashCommand(run.url, '/work help');
    expect(help.text).toContain('What you can do with Worklink');

    const setup = savedSetup();
    workspaceId = setup.seed.workspaceId;
    expect(workspaceId).toMatch(/^[0-9a-f]{24}$/);
    expect(run.out()).toContain(setup.seed.workspaceName);
    // It holds the API key and the generated signing secret: owner only.
    expect(statSync(join(dataDir, 'sandbox.json')).mode & 0o777).toBe(0o600);
    // Nothing secret reaches the console.
    const key = (
      JSON.parse(readFileSync(join(dataDir, 'sandbox.json'), 'utf8')) as {
        seed: { apiKey: string };
      }
    ).seed.apiKey;
    expect(run.out() + run.err()).not.toContain(key);

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 60_000);

  it('reuses the seeded workspace and its connection on the next start', async () => {
    const run = await startProcess();
    expect(savedSetup().seed.workspaceId).toBe(workspaceId);
    expect(run.out()).not.toContain('(just created)');
    const status = await slashCommand(run.url, '/work status');
    expect(status.text).toContain(`workspace \`${workspaceId}\``);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 60_000);

  it('says in one sentence when the port is taken, and exits 1', async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as import('node:net').AddressInfo;
    const freshDir = join(dataDir, 'fresh');
    try {
      const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['src/main.ts', 'start'], {
        cwd: ROOT,
        env: cleanEnv(String(port), freshDir),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      running.add(child);
      let err = '';
      child.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      running.delete(child);
      expect(code).toBe(1);
      const lines = err.split('\n').filter((l) => l.startsWith('worklink:'));
      expect(lines).toEqual([
        `worklink: PORT ${port} is already in use: stop whatever is using it, or choose another port (PORT=3001 npm start).`,
      ]);
      expect(err).not.toMatch(/\n\s+at /);
      // Nothing was seeded or saved for a start that could not listen.
      expect(existsSync(join(freshDir, 'sandbox.json'))).toBe(false);
      expect(existsSync(join(freshDir, 'service.db'))).toBe(false);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
