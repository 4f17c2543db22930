/**
 * The live-update queue on its own (a real store on disk, a stand-in for chat.update, a fake
 * clock): a burst is paced per team inside Slack's chat.update limit, a 429 waits its
 * Retry-After and tries again, changes to one task while it waits are done once, and
 * taskChanged returns before any update is made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { LiveUpdates } from '../../../src/slack/live/live-updates.js';
import { openStore, type Store } from '../../../src/store/index.js';

let dir: string;
let store: Store;
let updated: string[];
let answer: (ts: string) => unknown;

const slack = {
  chat: {
    update: async (args: { ts: string }) => {
      const a = answer(args.ts);
      if (a instanceof Error) throw a;
      updated.push(args.ts);
      return { ok: true };
    },
  },
} as unknown as WebClient;

function queue(burst: number, intervalMs: number) {
  return new LiveUpdates({
    messages: store.taskMessages,
    logger: createLogger('error', () => {}),
    slackFor: async () => slack,
    burst,
    intervalMs,
    render: async (_team, _task, messages) =>
      new Map(messages.map((m) => [m, { text: 'x', blocks: [] }])),
  });
}

async function remember(taskId: string, count: number) {
  for (let i = 0; i < count; i++) {
    await store.taskMessages.remember({
      teamId: 'T1',
      taskId,
      channelId: `C${i}`,
      ts: `${taskId}.${i}`,
      kind: 'card',
    });
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'worklink-live-'));
  store = openStore(dir);
  updated = [];
  answer = () => undefined;
  vi.useFakeTimers();
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('LiveUpdates', () => {
  it('returns at once and paces a burst: `burst` updates, then one per interval', async () => {
    await remember('task1', 5);
    const live = queue(2, 1_000);
    live.taskChanged('T1', 'task1');
    expect(updated).toEqual([]); // nothing happened inside the call
    await vi.advanceTimersByTimeAsync(0);
    expect(updated).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(updated).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(updated).toHaveLength(5);
    await live.idle();
  });

  it('does a task changed again while it waits only once', async () => {
    await remember('task1', 1);
    await remember('task2', 1);
    const live = queue(1, 1_000);
    live.taskChanged('T1', 'task1');
    live.taskChanged('T1', 'task2');
    live.taskChanged('T1', 'task2');
    live.taskChanged('T1', 'task2');
    await vi.advanceTimersByTimeAsync(5_000);
    await live.idle();
    expect(updated).toEqual(['task1.0', 'task2.0']);
  });

  it('waits out a 429’s Retry-After, then updates that message', async () => {
    await remember('task1', 1);
    let calls = 0;
    answer = () =>
      ++calls === 1
        ? Object.assign(new Error('rate limited'), {
            code: 'slack_webapi_rate_limited_error',
            retryAfter: 30,
          })
        : undefined;
    const live = queue(10, 1_000);
    live.taskChanged('T1', 'task1');
    await vi.advanceTimersByTimeAsync(29_000);
    expect(updated).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    await live.idle();
    expect(updated).toEqual(['task1.0']);
  });

  it('stops at once, even while waiting out a long Retry-After', async () => {
    await remember('task1', 1);
    answer = () =>
      Object.assign(new Error('rate limited'), {
        code: 'slack_webapi_rate_limited_error',
        retryAfter: 600,
      });
    const live = queue(10, 1_000);
    live.taskChanged('T1', 'task1');
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    const stopping = live.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(500);
    await stopping;
    expect(stopped).toBe(true);
    expect(updated).toEqual([]);
  });

  it('ignores a task it posted nothing about', async () => {
    const live = queue(10, 1_000);
    live.taskChanged('T1', 'unknown');
    await live.idle();
    expect(updated).toEqual([]);
  });
});
