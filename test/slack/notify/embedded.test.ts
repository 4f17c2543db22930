/**
 * With no external service configured, startWorklink starts the embedded one and subscribes
 * itself to its events (a generated secret when WORK_EVENTS_SECRET is unset): a task created
 * on the service by anyone is DMed with no further setup.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { seedDemoWorkspace } from '../../../src/service/index.js';
import { startWorklink, type WorklinkHandle } from '../../../src/slack/start/worklink.js';
import { signEvent } from '../../../src/workapi/event-signature.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import {
  BOT_TOKEN,
  SIGNING_SECRET,
  SLACK_USERS,
  saveVerifiedConnection,
  TEAM_ID,
  waitFor,
} from '../../support/harness.js';
import { dmCalls } from '../../support/notify-slack.js';
import { SureWorkClient } from '../../support/sure-work.js';

let fake: FakeSlack;
let handle: WorklinkHandle;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'worklink-embedded-'));
  fake = await startFakeSlack({ teamId: TEAM_ID, users: Object.values(SLACK_USERS) });
  handle = await startWorklink({
    config: {
      slack: { mode: 'http', botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET },
      slackApiUrl: fake.apiUrl,
      port: 0,
      dataDir,
      logLevel: 'error',
    },
    port: 0,
    host: '127.0.0.1',
    logger: createLogger('error', () => {}),
  });
});
afterAll(async () => {
  await handle?.stop();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('subscribes itself to the embedded service and DMs assignees of tasks made there', async () => {
  expect(handle.service).toBeDefined();
  const notifications = handle.parts.notifications;
  notifications.tuning.eventGraceMs = 0;
  expect(notifications.eventsSecret).toMatch(/^[0-9a-f]{64}$/);

  const seed = seedDemoWorkspace(handle.service!.db);
  const work = new SureWorkClient({ ...handle.workUrls, apiKey: seed.apiKey });
  await saveVerifiedConnection(handle.store, seed, 'U_ALICE', work);
  const bob = seed.users.find((u) => u.email === 'bob@example.com')!;
  await work.createTask({
    projectId: seed.projects[0].projectId,
    name: 'Hello',
    taskUsers: [bob.id],
  });
  const [dm] = await waitFor(() => (dmCalls(fake).length === 1 ? dmCalls(fake) : undefined), {
    timeoutMs: 10_000,
  });
  expect(dm.body.channel).toBe('U_BOB');
  expect(dm.body.text).toMatch(/^Alice Adams assigned you \*Hello\*/);

  // Only the generated secret is accepted.
  const ts = Math.floor(Date.now() / 1000);
  const res = await fetch(`${handle.url}/work/events`, {
    method: 'POST',
    headers: { 'x-work-timestamp': String(ts), 'x-work-signature': signEvent('guess', ts, '{}') },
    body: '{}',
  });
  expect(res.status).toBe(401);
});
