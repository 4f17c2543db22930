/**
 * Poison data never stops a pipeline (issue 24, finding 1): tasks made in the hosted service
 * with hostile text — U+0000, lone surrogates, markup, search syntax — go through the whole
 * pipeline (the watcher's look, the task index, the outbox's DMs, a channel feed) on both
 * engines, and the innocent task made after them is announced. On PostgreSQL a single U+0000
 * used to stop the team's looks for good.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { openStore, type Store } from '../../src/store/index.js';
import { Watcher } from '../../src/sync/watcher.js';
import { WorkClient } from '../../src/workapi/client.js';
import type { RecordedCall } from '../support/fake-slack.js';
import { waitFor } from '../support/harness.js';
import { type HostedFake, startHostedFake } from '../support/hosted-fake.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';
import { usePostgres } from '../support/postgres.js';

const postgres = usePostgres();

/** Names (and descriptions) a service may hold. */
const HOSTILE = [
  'Nul\u0000in the middle',
  '\u0000',
  'Lone high \uD800 surrogate',
  'Lone low \uDFFF surrogate',
  'Reversed \uDC00\uD800 pair',
  'Emoji 🚀 stays',
  '<!channel> <http://evil.example|Verify your account>',
  '"NEAR(a b)" OR * AND -x : ^ \'; DROP TABLE tasks; --',
  'Backslash \\u0000 as text',
  '\u202Eright-to-left override',
];

const SLACK_IDS = ['U_BOB', 'U_DAN', 'U_ERIN'];

const dmTo = (h: HostedHarness, user: string, taskId: string) =>
  h.fake
    .callsOf('chat.postMessage')
    .some((c: RecordedCall) => c.body.channel === user && JSON.stringify(c.body).includes(taskId));

describe.each(['SQLite', 'PostgreSQL'] as const)('hostile task text on %s', (engine) => {
  let h: HostedHarness;

  beforeAll(async () => {
    const databaseUrl = engine === 'PostgreSQL' ? await postgres.freshDatabase() : undefined;
    h = await startHostedHarness({
      connect: true,
      pollSeconds: 1,
      configure: (config) =>
        databaseUrl ? { ...config, databaseUrl, secretsKey: randomBytes(32) } : config,
    });
    h.worklink.parts.notifications.tuning.eventGraceMs = 100;
    const { channelProjects, channelFeeds } = h.worklink.store;
    const alice = h.users.alice.id;
    await channelProjects.link(h.teamId, 'C_GENERAL', h.hosted.projects.website, alice);
    await channelFeeds.enable(h.teamId, 'C_GENERAL', false, alice);
    // The first look only records what is there.
    const { website } = h.hosted.projects;
    await waitFor(
      async () =>
        (await h.worklink.store.watchState.looks(h.teamId)).some((l) => l.projectId === website),
      { timeoutMs: 10_000 },
    );
  });
  afterAll(() => h?.stop());

  it('announces every task, the innocent one after the poisoned ones included', async () => {
    const { hosted } = h;
    const people = [hosted.users.bob, hosted.users.dan, hosted.users.erin];
    const poisoned = HOSTILE.map((name, i) => {
      const id = hosted.addTask({
        projectId: hosted.projects.website,
        name,
        assignees: [people[i % 3]!],
      });
      hosted.tasks.get(id)!.description = `${name} (description)`;
      return id;
    });
    const innocent = hosted.addTask({
      projectId: hosted.projects.website,
      name: 'Innocent task after the poison',
      assignees: [hosted.users.carol],
    });

    await waitFor(() => dmTo(h, 'U_CAROL', innocent), { timeoutMs: 20_000 });
    // Each person's DMs go out at most one a second (Slack's limit per DM channel).
    await waitFor(() => poisoned.every((id, i) => dmTo(h, SLACK_IDS[i % 3]!, id)), {
      timeoutMs: 20_000,
    });
    // The feed posts the first 5 as cards, then the minute's summary; the index holds each.
    const carded = async () =>
      (
        await Promise.all(
          poisoned.map(
            async (id) => (await h.worklink.store.channelFeeds.cardsOf(h.teamId, id)).length,
          ),
        )
      ).filter((n) => n === 1).length;
    await waitFor(async () => (await carded()) === 5, { timeoutMs: 10_000 });
    await waitFor(
      () =>
        h.fake.calls.some(
          (c) => c.body.channel === 'C_GENERAL' && /more new tasks/.test(JSON.stringify(c.body)),
        ),
      { timeoutMs: 10_000 },
    );
    const indexed = await h.worklink.store.taskIndex.get(h.teamId, poisoned[0]!);
    expect(indexed?.name).toBe('Nul\uFFFDin the middle');
    const found = await h.worklink.store.taskIndex.search(h.teamId, 'innocent');
    expect(found.map((t) => t.taskId)).toContain(innocent);
    // Nothing was left failing.
    expect((await h.worklink.parts.watcher.status(h.teamId)).failedTasks).toEqual([]);
  });
});

describe('a task that cannot be announced', () => {
  const TEAM = 'T_POISON';
  const INTERVAL = 60_000;
  let hosted: HostedFake;
  let dir: string;
  let store: Store;
  let clock: number;
  let announced: string[];
  let refuse: Set<string>;
  let logs: string[];
  let watcher: Watcher;

  beforeAll(async () => {
    hosted = await startHostedFake();
    dir = mkdtempSync(join(tmpdir(), 'worklink-poison-'));
    store = openStore(dir);
    await store.connections.save({
      teamId: TEAM,
      workspaceId: 'w',
      workspaceName: 'Hosted Co',
      apiKey: hosted.apiKey,
      connectedBy: 'U_ALICE',
      connectedAt: new Date().toISOString(),
    });
    clock = Date.parse('2026-11-22T10:00:00Z');
    announced = [];
    refuse = new Set();
    logs = [];
    const work = new WorkClient({
      baseUrl: hosted.baseUrl,
      altUrl: hosted.altUrl,
      apiKey: hosted.apiKey,
      retry: { attempts: 1 },
    });
    watcher = new Watcher({
      store,
      logger: createLogger('debug', (line) => logs.push(line)),
      intervalMs: INTERVAL,
      now: () => clock,
      workFor: async () => work,
      announce: async (_team, task) => {
        if (refuse.has(task.taskId)) throw new Error('the store refused its text');
        announced.push(task.taskId);
      },
    });
    // The baseline looks.
    for (let t = 0; t <= INTERVAL; t += 1_000, clock += 1_000) await watcher.runDue();
  });
  afterAll(async () => {
    await store?.close();
    await hosted?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function advance(ms: number) {
    for (let t = 0; t < ms; t += 1_000) {
      clock += 1_000;
      await watcher.runDue();
    }
  }

  it('is recorded against that task, and the look goes on with the others', async () => {
    const website = hosted.projects.website;
    const bad = hosted.addTask({ projectId: website, name: 'Refused' });
    const good = hosted.addTask({ projectId: website, name: 'Innocent' });
    refuse.add(bad);
    await advance(INTERVAL);
    expect(announced).toEqual([good]);
    const status = await watcher.status(TEAM);
    expect(status.problem).toBeUndefined();
    expect(status.failedTasks).toMatchObject([
      { taskId: bad, projectId: website, attempts: 1, error: 'the store refused its text' },
    ]);
    expect(
      logs.filter((l) => l.includes(`task ${bad} of ${TEAM} could not be announced`)),
    ).toHaveLength(1);
  });

  it('is tried again with a growing pause, logged once, and announced once it can be', async () => {
    const [failed] = (await watcher.status(TEAM)).failedTasks;
    hosted.resetCalls();
    // Pauses of 1, 2 and 4 intervals: tries at about +1, +3 and +7 intervals from the first.
    await advance(7 * INTERVAL);
    const reads = hosted.calls('GET /task/:id');
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(3);
    expect((await watcher.status(TEAM)).failedTasks[0]!.attempts).toBe(1 + reads);
    expect(logs.filter((l) => l.includes('could not be announced'))).toHaveLength(1);
    refuse.clear();
    await advance(9 * INTERVAL);
    expect(announced.filter((id) => id === failed!.taskId)).toHaveLength(1);
    expect((await watcher.status(TEAM)).failedTasks).toEqual([]);
  });
});
