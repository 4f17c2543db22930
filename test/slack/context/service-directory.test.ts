/**
 * The service directory's user lists are bounded in bytes, not only in teams: against the
 * embedded service over HTTP, each team's list is weighed when it comes, and a bound that
 * holds one list keeps the most recently asked team's — the other's is asked again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServiceHandle, seedDemoWorkspace, startService } from '../../../src/service/index.js';
import { ServiceDirectory, userBytes } from '../../../src/slack/context/service-directory.js';
import { WorkClient } from '../../../src/workapi/client.js';

/** A client that counts its listUsers calls. */
class CountingClient extends WorkClient {
  listed = 0;
  override listUsers() {
    this.listed++;
    return super.listUsers();
  }
}

let dir: string;
let service: ServiceHandle;
let work: CountingClient;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'worklink-directory-'));
  service = await startService({ dbPath: join(dir, 'service.db'), port: 0, host: '127.0.0.1' });
  const seed = seedDemoWorkspace(service.db);
  work = new CountingClient({
    baseUrl: service.baseUrl,
    altUrl: service.altUrl,
    apiKey: seed.apiKey,
  });
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What one team's demo user list weighs, as the directory counts it. */
async function oneListBytes(): Promise<number> {
  const probe = new ServiceDirectory();
  const users = await probe.usersOf('T_PROBE', work);
  expect(users.size).toBeGreaterThan(1);
  let bytes = 0;
  for (const u of users.values()) bytes += userBytes(u);
  return bytes;
}

it('keeps user lists within the bytes bound, the least recently asked team leaving first', async () => {
  const bytes = await oneListBytes();
  // Room for one list and a half: the second team's list pushes the first one out.
  const directory = new ServiceDirectory(60_000, 60_000, 1_000, Math.floor(bytes * 1.5));
  work.listed = 0;
  await directory.usersOf('T_ONE', work);
  await directory.usersOf('T_ONE', work);
  expect(work.listed).toBe(1); // served from the cache
  await directory.usersOf('T_TWO', work);
  await directory.usersOf('T_TWO', work);
  expect(work.listed).toBe(2);
  await directory.usersOf('T_ONE', work); // evicted by T_TWO's list: asked again
  expect(work.listed).toBe(3);
});

it('does not keep a list larger than the whole bound', async () => {
  const directory = new ServiceDirectory(60_000, 60_000, 1_000, 100);
  work.listed = 0;
  const first = await directory.usersOf('T_BIG', work);
  expect(first.size).toBeGreaterThan(1); // the answer is still given
  await directory.usersOf('T_BIG', work);
  expect(work.listed).toBe(2);
});
