/** seen_requests on a real SQLite file: a key is taken once while live, again once expired. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';

it('claims a key once until it expires, and prunes expired keys', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'worklink-seen-'));
  const store = openStore(dir);
  try {
    const seen = store.seenRequests;
    expect(await seen.claim('sig:a', 2_000, 1_000)).toBe(true);
    expect(await seen.claim('sig:a', 2_500, 1_500)).toBe(false);
    expect(await seen.claim('sig:a', 3_000, 2_000)).toBe(true);
    expect(await seen.claim('sig:b', 1_500, 1_000)).toBe(true);
    expect(await seen.prune(2_600)).toBe(1);
    expect(await seen.claim('sig:a', 4_000, 2_700)).toBe(false);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
