/**
 * A full disk (issue 24, finding 3): on a small tmpfs filled up, a write to the SQLite store
 * fails with an error Worklink knows as a storage fault; the app still answers `/work help`
 * (no write on the request path: helper H's HTTP front), tells a person who changes something
 * "Worklink cannot save right now", and logs one error line a minute, not one per request.
 * Needs root (mount); otherwise skipped with the reason printed.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { CANNOT_SAVE, isStorageFault, reportStorageFault } from '../../src/store/storage-fault.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

const root = process.getuid?.() === 0;
if (!root)
  console.log('full-disk.test.ts: skipped, mounting a tmpfs needs root (CI runs as root).');

/** Fills the file system holding `dir` to the last byte. */
function fill(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // ENOSPC: full. Then the last bytes, a smaller write at a time.
    for (let size = 32 * 1024; size >= 1; size = Math.floor(size / 2)) {
      try {
        for (;;) writeSync(fd, chunk.subarray(0, size));
      } catch {
        // this size no longer fits
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!root)('a full disk', () => {
  let mount: string;
  let store: Store;
  beforeAll(() => {
    mount = mkdtempSync(join(tmpdir(), 'worklink-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
    store = openStore(join(mount, 'data'));
  });
  afterAll(async () => {
    await store?.close();
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  it('makes writes fail as a storage fault, said once a minute', async () => {
    await store.channelProjects.link('T', 'C1', 'P1', 'U1');
    fill(mount);
    let failure: unknown;
    try {
      for (let i = 0; i < 2_000; i++) {
        await store.knownProjects.remember('T', `p${i}`, `Project ${'x'.repeat(500)} ${i}`);
      }
    } catch (e) {
      failure = e;
    }
    expect(failure).toBeDefined();
    expect(isStorageFault(failure)).toBe(true);
    // What is already there can still be read.
    expect((await store.channelProjects.get('T', 'C1'))?.projectId).toBe('P1');

    const lines: string[] = [];
    const logger = { error: (m: string) => void lines.push(m) };
    // Long ago: the app's own report below is not held back by these.
    const t0 = 1_000;
    reportStorageFault(logger, failure, t0);
    reportStorageFault(logger, failure, t0 + 10_000);
    reportStorageFault(logger, failure, t0 + 59_000);
    reportStorageFault(logger, failure, t0 + 61_000);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^The database cannot be written or read \(.*\): Worklink answers what it can/,
    );
    expect(lines[1]).toContain('(2 more since the last report)');
    expect(CANNOT_SAVE).toMatch(/^Worklink cannot save right now/);
  });
});

describe.skipIf(!root)('the app on a full disk', () => {
  let mount: string;
  let h: HostedHarness;
  beforeAll(async () => {
    mount = mkdtempSync(join(tmpdir(), 'worklink-full-app-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
    h = await startHostedHarness({ connect: true, dataDir: join(mount, 'data') });
    fill(mount);
  });
  afterAll(async () => {
    await h?.stop();
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
    }
  });

  it('answers /work help, refuses changes in one sentence, and logs at error once a minute', async () => {
    const help = await h.slack.slashCommand('help');
    expect(help.status).toBe(200);
    expect(JSON.stringify(await h.replyTo(help))).toContain('/work new');
    for (const channel of ['C_ONE', 'C_TWO']) {
      const res = await h.slack.slashCommand(`project link ${h.hosted.projects.website}`, {
        channelId: channel,
      });
      expect(res.status).toBe(200);
      expect((await h.replyTo(res)).text).toBe(CANNOT_SAVE);
    }
    const errors = h.logs.filter((l) => l.includes('The database cannot be written or read'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('ERROR');
  });
});
