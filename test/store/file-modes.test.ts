/**
 * DATA_DIR holds e-mails, links, task data and (encrypted) keys: only Worklink's own user may
 * read it. Both databases, as the app and the embedded service really open them on disk.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { seedDemoWorkspace, startService } from '../../src/service/index.js';
import { openStore } from '../../src/store/index.js';

let root: string;
let umask: number;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'worklink-modes-'));
  // The usual umask, which used to leave everything world-readable.
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

it('creates DATA_DIR 0700 and worklink.db, service.db and their -wal/-shm files 0600', async () => {
  const dataDir = join(root, 'data');
  const store = openStore(dataDir);
  await store.knownProjects.remember('T1', 'p'.repeat(24), 'Launch');
  const service = await startService({ dbPath: join(dataDir, 'service.db'), port: 0 });
  seedDemoWorkspace(service.db);
  try {
    expect(mode(dataDir)).toBe('700');
    for (const db of ['worklink.db', 'service.db']) {
      for (const file of [db, `${db}-wal`, `${db}-shm`]) {
        expect([file, mode(join(dataDir, file))]).toEqual([file, '600']);
      }
    }
    expect(mode(join(dataDir, 'secret.key'))).toBe('600');
  } finally {
    await store.close();
    await service.close();
  }
});

it('tightens database files an older version left readable', async () => {
  const dataDir = join(root, 'data');
  await openStore(dataDir).close();
  chmodSync(join(dataDir, 'worklink.db'), 0o644);
  const store = openStore(dataDir);
  try {
    expect(mode(join(dataDir, 'worklink.db'))).toBe('600');
  } finally {
    await store.close();
  }
});
