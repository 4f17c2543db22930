/**
 * Storage faults (issue 24, findings 3 and 9): the SQLite WAL is checkpointed on a schedule
 * and kept bounded; a database file deleted or replaced while Worklink runs is noticed by its
 * identity (device and inode) and stops the process with one sentence — `worklink start` as a
 * real process exits 1 saying so, instead of running on a deleted inode.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DatabaseUpkeep } from '../../src/store/upkeep.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { waitFor } from '../support/harness.js';

const root = new URL('../../', import.meta.url).pathname;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'worklink-upkeep-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const walSize = (dataDir: string) => {
  try {
    return statSync(join(dataDir, 'worklink.db-wal')).size;
  } catch {
    return 0;
  }
};

/** Small writes like an idle Worklink's: leases taken and finished. */
async function smallWrites(store: Store, n: number) {
  for (let i = 0; i < n; i++) {
    await store.leases.claim([`k${i % 50}`], 'me', i, 1);
    await store.leases.finish(`k${i % 50}`, 'me', i);
  }
}

/** A store on disk and its upkeep, started, with rounds an hour apart (the test calls them). */
function startUpkeep(dataDir: string) {
  const store = openStore(dataDir);
  const lost: string[] = [];
  const upkeep = new DatabaseUpkeep({
    store,
    logger: createLogger('error', () => {}),
    onLost: (s) => void lost.push(s),
    checkpointMs: 3_600_000,
    identityMs: 3_600_000,
  });
  upkeep.start();
  return { store, upkeep, lost };
}

describe('the write-ahead log', () => {
  it('is checkpointed back to empty, and its size after a checkpoint is capped', async () => {
    const dataDir = join(dir, 'wal');
    const { store, upkeep, lost } = startUpkeep(dataDir);
    await smallWrites(store, 300);
    const grown = walSize(dataDir);
    expect(grown).toBeGreaterThan(100_000);
    upkeep.checkpoint();
    expect(walSize(dataDir)).toBe(0);
    upkeep.stop();
    await store.close();
    expect(lost).toEqual([]);
  });
});

describe('a database file that is replaced', () => {
  it('is noticed by its identity, with one sentence', async () => {
    const dataDir = join(dir, 'replaced');
    const { store, upkeep, lost } = startUpkeep(dataDir);
    upkeep.checkIdentity();
    expect(lost).toEqual([]);
    const db = join(dataDir, 'worklink.db');
    copyFileSync(db, `${db}.copy`);
    renameSync(`${db}.copy`, db);
    upkeep.checkIdentity();
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(
      /^The database file .*worklink\.db was replaced by another file while Worklink was running; Worklink stops/,
    );
    await store.close();
  });
});

describe('worklink start, when its database file is deleted', () => {
  let fake: FakeSlack;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    fake = await startFakeSlack({ tokens: ['xoxb-good'] });
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await fake?.close();
  });

  it('stops with one sentence and exit code 1', async () => {
    const dataDir = join(dir, 'deleted');
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SLACK_BOT_TOKEN: 'xoxb-good',
        SLACK_SIGNING_SECRET: 'sig-for-upkeep',
        SLACK_API_URL: fake.apiUrl,
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      },
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((r) => child!.on('exit', (code) => r(code)));
    await waitFor(() => /listening on/.test(stderr), { timeoutMs: 30_000 });
    rmSync(join(dataDir, 'worklink.db'));
    expect(await exited).toBe(1);
    expect(stderr).toMatch(
      /\nworklink: The database file \S+worklink\.db was deleted while Worklink was running; Worklink stops so that nothing more is written where no one will read it \(restore the file, or start again to begin with an empty database\)\.\n/,
    );
  }, 60_000);
});
