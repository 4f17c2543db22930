/**
 * Stopping Worklink records the requests it took in last (the replay window writes them
 * behind, here an hour behind): after a restart on the same files, a replay of a request
 * answered just before the stop is still refused.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { AppConfig } from '../../../src/config.js';
import { type Harness, SIGNING_SECRET, startHarness } from '../../support/harness.js';

const dataDir = mkdtempSync(join(tmpdir(), 'worklink-replay-stop-'));
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const writtenLate = (config: AppConfig): AppConfig => ({
  ...config,
  waits: { ...config.waits, replayFlushMs: 3_600_000 },
});

async function post(url: string, body: string, timestamp: number) {
  const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signature,
    },
    body,
  });
  await res.text();
  return res.status;
}

it('refuses after a restart the replay of a request taken in just before the stop', async () => {
  h = await startHarness({ dataDir, connect: true, configure: writtenLate });
  const body = new URLSearchParams({
    team_id: h.teamId,
    channel_id: 'C_GENERAL',
    user_id: h.users.alice.id,
    command: '/work',
    text: 'help',
    response_url: h.fake.responseUrl(),
    trigger_id: `trig.${randomUUID()}`,
  }).toString();
  const timestamp = Math.floor(Date.now() / 1000);
  expect(await post(h.worklink.eventsUrl, body, timestamp)).toBe(200);
  await h.stop();

  h = await startHarness({ dataDir, configure: writtenLate });
  expect(await post(h.worklink.eventsUrl, body, timestamp)).toBe(200);
  expect(h.logs.some((l) => l.includes('Ignored a replayed Slack request'))).toBe(true);
});
