/**
 * Outbox fixtures for notification tests: a temp app store, rows already matched to Slack
 * users, and a worker wired to a fake Slack the way the app wires it (no Web API retries,
 * 429s rejected to the worker) but with short delays.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { NotifyWorker } from '../../src/slack/notify/worker.js';
import type { NotifyWorkerOptions } from '../../src/slack/notify/worker-options.js';
import type { NewOutboxRow } from '../../src/store/index.js';
import { openStore, type Store } from '../../src/store/index.js';

export interface TempStore {
  dir: string;
  store: Store;
  remove(): Promise<void>;
}

export function tempStore(prefix = 'worklink-notify-'): TempStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = openStore(dir);
  return {
    dir,
    store,
    async remove() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let taskCounter = 0;

/** A row for `slackUserId` (already matched), on a fresh task unless `taskId` is given. */
export function matchedRow(
  teamId: string,
  slackUserId: string,
  extra: Partial<NewOutboxRow> = {},
): NewOutboxRow {
  const n = ++taskCounter;
  return {
    teamId,
    taskId: `task${String(n).padStart(20, '0')}`,
    serviceUserId: `svc_${slackUserId}`,
    serviceUserEmail: `${slackUserId.toLowerCase()}@example.com`,
    source: 'slack',
    creatorLabel: 'Alice Adams',
    taskName: `Task ${n}`,
    projectName: 'Website',
    dueDate: '2026-11-25T00:00:00.000Z',
    priority: '2',
    slackUserId,
    ...extra,
  };
}

/** Web API client per team token `xoxb-<team>`, as the app builds it (fast timeout). */
export function slackClients(apiUrl: string, timeoutMs = 1_000) {
  const clients = new Map<string, WebClient>();
  return async (teamId: string) => {
    let c = clients.get(teamId);
    if (!c) {
      c = new WebClient(`xoxb-${teamId}`, {
        slackApiUrl: apiUrl,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: timeoutMs,
      });
      clients.set(teamId, c);
    }
    return c;
  };
}

export function testWorker(
  store: Store,
  apiUrl: string,
  options: Partial<NotifyWorkerOptions> & { timeoutMs?: number } = {},
): NotifyWorker {
  return new NotifyWorker({
    outbox: store.outbox,
    pace: store.pace,
    slackFor: slackClients(apiUrl, options.timeoutMs),
    retryBaseMs: 20,
    retryCapMs: 200,
    leaseMs: 10_000,
    idlePollMs: 50,
    ...options,
  });
}
