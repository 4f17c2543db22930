/**
 * The `seed` and `service` commands as a user runs them: real child processes through
 * src/main.ts, real files, real signals.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../src/service/index.js';
import type { SeedResult } from '../../src/service/seed.js';
import { SureWorkClient } from '../support/sure-work.js';
import { makeTempDir, waitFor } from './support.js';

const root = resolve(import.meta.dirname, '../..');
const tsxCli = join(root, 'node_modules/tsx/dist/cli.mjs');
/** src/main.ts dispatches to src/service/cli.ts; run through it when it is there. */
const entry = existsSync(join(root, 'src/main.ts'))
  ? ['src/main.ts']
  : ['test/service/fixtures/cli-entry.ts'];

let temp: ReturnType<typeof makeTempDir>;
const children: ChildProcess[] = [];

beforeAll(() => {
  temp = makeTempDir('worklink-cli-');
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  temp.remove();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion. `npx` is how the brief asks for `seed` to be run. */
function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** stderr without npm's own notices about the machine's npm configuration. */
const ownStderr = (s: string) =>
  s
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('npm warn'))
    .join('\n');

/** Each argument list must fail with exit code 2 and one sentence on stderr, no stack. */
async function expectUsageErrors(cases: string[][]): Promise<void> {
  const outs = await Promise.all(cases.map((a) => run(process.execPath, [tsxCli, ...entry, ...a])));
  for (const [i, out] of outs.entries()) {
    expect(out.code, cases[i].join(' ')).toBe(2);
    const err = ownStderr(out.stderr);
    expect(err.split('\n'), err).toHaveLength(1);
    expect(err).not.toMatch(/\n\s+at /);
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1];
}

describe('seed', () => {
  it('prints a new demo workspace as JSON on the last line, a different one each run', async () => {
    const db = join(temp.dir, 'seed.db');
    const first = await run('npx', ['tsx', ...entry, 'seed', '--db', db, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const a = JSON.parse(lastLine(first.stdout)) as SeedResult;
    expect(Object.keys(a).sort()).toEqual(
      ['apiKey', 'customers', 'projects', 'users', 'workspaceId', 'workspaceName'].sort(),
    );
    expect(a.workspaceId).toMatch(/^[0-9a-f]{24}$/);
    expect(a.users.map((u) => [u.name, u.email])).toEqual([
      ['Alice Adams', 'alice@example.com'],
      ['Bob Brown', 'bob@example.com'],
      ['Carol Chen', 'carol@example.com'],
      ['Dan Diaz', 'dan@example.com'],
      ['Erin Evans', 'erin@example.com'],
    ]);
    expect(a.customers.map((c) => c.companyName)).toEqual(['Acme Corp', 'Globex']);
    expect(a.projects.map((p) => [p.projectName, p.groups.map((g) => g.groupName)])).toEqual([
      ['Website relaunch', ['Design', 'Build', 'Launch']],
      ['Customer onboarding', ['Backlog', 'This week']],
    ]);

    const second = await run('npx', ['tsx', ...entry, 'seed', '--db', db, '--json']);
    expect(second.code, second.stderr).toBe(0);
    const b = JSON.parse(lastLine(second.stdout)) as SeedResult;
    expect(b.workspaceId).not.toBe(a.workspaceId);
    expect(b.apiKey).not.toBe(a.apiKey);
    expect(b.projects[0].projectId).not.toBe(a.projects[0].projectId);
  });

  it('prints a readable summary without --json', async () => {
    const out = await run('npx', ['tsx', ...entry, 'seed', '--db', join(temp.dir, 'plain.db')]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/Created demo workspace/);
    expect(out.stdout).toMatch(/API key/);
    expect(out.stdout).toMatch(/Website relaunch/);
  });

  it('answers bad arguments with one sentence and exit code 2', async () => {
    await expectUsageErrors([
      ['seed'],
      ['seed', '--db'],
      ['seed', '--db', 'x.db', '--colour', 'red'],
    ]);
  });
});

describe('service', () => {
  it('serves until SIGTERM, printing its URLs, then exits 0', async () => {
    const db = join(temp.dir, 'serve.db');
    const seeded = await run(process.execPath, [tsxCli, ...entry, 'seed', '--db', db, '--json']);
    const seed = JSON.parse(lastLine(seeded.stdout)) as SeedResult;

    const child = spawn(
      process.execPath,
      [tsxCli, ...entry, 'service', '--db', db, '--port', '0', '--host', '127.0.0.1'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stdout = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

    const [baseUrl, altUrl] = await waitFor(
      () => {
        const base = /base URL:\s+(\S+)/.exec(stdout)?.[1];
        const alt = /alt URL:\s+(\S+)/.exec(stdout)?.[1];
        return base && alt ? [base, alt] : undefined;
      },
      { what: 'the printed URLs', timeoutMs: 30_000 },
    );
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\.0$/);
    expect(altUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);

    const client = new SureWorkClient({ baseUrl, altUrl, apiKey: seed.apiKey });
    expect(await client.verify()).toMatchObject({ workspaceId: seed.workspaceId });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/stopped/);
  });

  it('refuses bad arguments with one sentence and exit code 2', async () => {
    await expectUsageErrors([
      ['service'],
      ['service', '--db', 'x.db', '--port', 'eighty'],
      ['service', '--db', 'x.db', '--events-url', 'http://127.0.0.1:1/e'],
    ]);
  });
});

describe('key', () => {
  it('issues a new key acting as the user, and asks which workspace when the e-mail is in several', async () => {
    const db = join(temp.dir, 'keys.db');
    const cli = (...args: string[]) => run(process.execPath, [tsxCli, ...entry, ...args]);
    const seed = JSON.parse(
      lastLine((await cli('seed', '--db', db, '--json')).stdout),
    ) as SeedResult;
    const bob = seed.users.find((u) => u.email === 'bob@example.com')!;
    // Every demo user has a key of their own from the seed.
    expect(bob.apiKey).toMatch(/\S{20,}/);

    const issued = await cli('key', '--db', db, '--user', 'BOB@example.com');
    expect(issued.code, issued.stderr).toBe(0);
    expect(issued.stdout).toContain('Bob Brown');
    const key = lastLine(issued.stdout);
    expect(key).not.toBe(bob.apiKey);

    const service = await startService({ dbPath: db, port: 0 });
    try {
      const client = new SureWorkClient({ ...service, apiKey: key });
      expect(await client.verify()).toMatchObject({
        workspaceId: seed.workspaceId,
        createdBy: bob.id,
      });
    } finally {
      await service.close();
    }

    const other = JSON.parse(
      lastLine((await cli('seed', '--db', db, '--json')).stdout),
    ) as SeedResult;
    const twice = await cli('key', '--db', db, '--user', 'bob@example.com');
    expect(twice.code).toBe(2);
    expect(ownStderr(twice.stderr)).toMatch(
      /is a user in 2 workspaces: .+ Name one with --workspace/,
    );
    const chosen = await cli(
      'key',
      '--db',
      db,
      '--user',
      'bob@example.com',
      '--workspace',
      other.workspaceId,
    );
    expect(chosen.code, chosen.stderr).toBe(0);
  });

  it('refuses bad arguments with one sentence and exit code 2', async () => {
    await expectUsageErrors([
      ['key', '--db', join(temp.dir, 'nothing-here.db'), '--user', 'bob@example.com'],
      ['key', '--user', 'bob@example.com'],
      ['key', '--db', join(temp.dir, 'plain.db')],
      ['key', '--db', join(temp.dir, 'plain.db'), '--user', 'nobody@example.com'],
    ]);
  });
});
