/**
 * New tasks found without events: a task made directly in the hosted-style fake (which
 * sends no events) reaches each assignee as one DM within a poll interval, with the app
 * started from the environment; also after a restart; never twice (a task made from Slack,
 * or announced by an event as well). The watcher's costs and failure handling run against
 * a controlled clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { openStore, type Store } from '../../src/store/index.js';
import { READS_PER_LOOK, Watcher } from '../../src/sync/watcher.js';
import { WorkClient } from '../../src/workapi/client.js';
import type { Task } from '../../src/workapi/contract.js';
import type { RecordedCall } from '../support/fake-slack.js';
import { type AppHarness, startHarness, waitFor } from '../support/harness.js';
import { type HostedFake, startHostedFake } from '../support/hosted-fake.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

/** DMs about a task, per Slack user. */
function dmsAbout(h: AppHarness, taskId: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of h.fake.callsOf('chat.postMessage') as RecordedCall[]) {
    if (!JSON.stringify(c.body).includes(taskId)) continue;
    const channel = String(c.body.channel);
    if (!channel.startsWith('U')) continue; // cards posted in channels are not DMs
    counts[channel] = (counts[channel] ?? 0) + 1;
  }
  return counts;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The app's DMs wait this long for the Slack path to take over (shortened for tests). */
function shortGrace(h: AppHarness) {
  h.worklink.parts.notifications.tuning.eventGraceMs = 100;
}

describe('a task made in the hosted service, with the app started from the environment', () => {
  let hosted: HostedFake;
  let dataDir: string;
  let h: HostedHarness;

  beforeAll(async () => {
    hosted = await startHostedFake();
    dataDir = mkdtempSync(join(tmpdir(), 'worklink-watch-'));
    h = await startHostedHarness({ fake: hosted, dataDir, pollSeconds: 1, connect: true });
    shortGrace(h);
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_GENERAL',
      hosted.projects.website,
      h.users.alice.id,
    );
  });
  afterAll(async () => {
    await h?.stop();
    await hosted?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const looked = async (projectId: string) =>
    (await h.worklink.store.watchState.looks(h.teamId)).find((l) => l.projectId === projectId);

  it('first only records what is there, then DMs each assignee of a new task once', async () => {
    // GET /project lists both projects: both are watched, the first look is the baseline.
    await waitFor(
      async () => (await looked(hosted.projects.website)) && looked(hosted.projects.onboarding),
      { timeoutMs: 4_000 },
    );
    const before = [...hosted.tasks.keys()];
    const taskId = hosted.addTask({
      projectId: hosted.projects.website,
      name: 'Made in the web app',
      assignees: [hosted.users.alice, hosted.users.bob, hosted.users.carol],
      createdBy: hosted.users.alice,
    });
    await waitFor(() => Object.keys(dmsAbout(h, taskId)).length === 2, { timeoutMs: 4_000 });
    // Two more intervals: nothing is announced twice, nothing old is announced.
    await pause(2_200);
    expect(dmsAbout(h, taskId)).toEqual({ U_BOB: 1, U_CAROL: 1 });
    for (const old of before) expect(dmsAbout(h, old)).toEqual({});
  });

  it('never announces a task made from Slack a second time', async () => {
    await h.slack.slashCommand('add Made in Slack @bob');
    // The confirmation is the live card in the channel.
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_GENERAL' && JSON.stringify(c.body).includes('Made in Slack'),
    );
    const task = [...hosted.tasks.values()].find((t) => t.name === 'Made in Slack')!;
    await waitFor(() => dmsAbout(h, task.id).U_BOB === 1);
    await pause(2_200);
    expect(dmsAbout(h, task.id)).toEqual({ U_BOB: 1 });
  });

  it('costs one list call per watched project per interval when nothing changes', async () => {
    await pause(1_200);
    hosted.resetCalls();
    await pause(3_000);
    const lists = hosted.calls('GET /task');
    // Two watched projects, about three intervals.
    expect(lists).toBeGreaterThanOrEqual(4);
    expect(lists).toBeLessThanOrEqual(8);
    expect(hosted.calls('GET /task/:id')).toBe(0);
  });

  it('shows what is watched and when it last looked in /work status', async () => {
    const reply = await h.replyTo(await h.slack.slashCommand('status'));
    expect(reply.text).toContain(
      'Tasks made outside Slack: 2 watched project(s), looked at every 1 s',
    );
    expect(reply.text).toContain('*Website relaunch*: last looked');
  });

  it('announces a task made while Worklink was stopped, once, after it starts again', async () => {
    await h.stop();
    const taskId = hosted.addTask({
      projectId: hosted.projects.onboarding,
      name: 'Made while Worklink was down',
      assignees: [hosted.users.dan],
    });
    h = await startHostedHarness({ fake: hosted, dataDir, pollSeconds: 1 });
    shortGrace(h);
    await waitFor(() => dmsAbout(h, taskId).U_DAN === 1, { timeoutMs: 4_000 });
    await pause(2_200);
    expect(dmsAbout(h, taskId)).toEqual({ U_DAN: 1 });
    // Nothing from before the restart is announced again.
    const announcedBefore = [...hosted.tasks.values()].filter((t) => t.id !== taskId);
    for (const t of announcedBefore) expect(dmsAbout(h, t.id)).toEqual({});
  });
});

describe('with events as well (the embedded service)', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await startHarness({
      connect: true,
      configure: (config) => ({ ...config, workPollSeconds: 1 }),
    });
    shortGrace(h);
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_GENERAL',
      h.seed.projects[0]!.projectId,
      h.users.alice.id,
    );
  });
  afterAll(() => h?.stop());

  it('both paths run and each assignee still gets one DM', async () => {
    const projectId = h.seed.projects[0]!.projectId;
    await waitFor(
      async () =>
        (await h.worklink.store.watchState.looks(h.teamId)).some((l) => l.projectId === projectId),
      { timeoutMs: 4_000 },
    );
    const bob = h.seed.users.find((u) => u.email === 'bob@example.com')!.id;
    const carol = h.seed.users.find((u) => u.email === 'carol@example.com')!.id;
    const task = await h.work.createTask({ projectId, name: 'Both ways', taskUsers: [bob, carol] });
    await waitFor(() => Object.keys(dmsAbout(h, task.taskId)).length === 2, { timeoutMs: 4_000 });
    await pause(2_500);
    expect(dmsAbout(h, task.taskId)).toEqual({ U_BOB: 1, U_CAROL: 1 });
    expect(h.worklink.parts.watcher.totals.announced).toBeGreaterThanOrEqual(1);
  });
});

describe('the watcher on a controlled clock', () => {
  const TEAM = 'T_CLOCK';
  const INTERVAL = 60_000;
  let hosted: HostedFake;
  let dir: string;
  let store: Store;
  let clock: number;
  let announced: Task[];
  let logs: string[];
  let watcher: Watcher;

  beforeAll(async () => {
    hosted = await startHostedFake();
    hosted.addProject('Third');
    dir = mkdtempSync(join(tmpdir(), 'worklink-watch-clock-'));
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
      announce: async (_team, task) => void announced.push(task),
    });
  });
  afterAll(async () => {
    await store?.close();
    await hosted?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Moves the clock on in steps, running what is due at each. */
  async function advance(ms: number, step = 1_000) {
    for (let t = 0; t < ms; t += step) {
      clock += step;
      await watcher.runDue();
    }
  }

  it('spreads the first looks over the interval, and they only set the baseline', async () => {
    await watcher.runDue();
    const first = hosted.calls('GET /task');
    expect(first).toBeLessThan(3);
    await advance(INTERVAL);
    expect(hosted.calls('GET /task')).toBe(3);
    expect(announced).toEqual([]);
  });

  it('costs one list call per project per interval when idle, and no task reads', async () => {
    hosted.resetCalls();
    await advance(5 * INTERVAL);
    expect(hosted.calls('GET /task')).toBe(15);
    expect(hosted.calls('GET /task/:id')).toBe(0);
    // The project list is asked for again every ten intervals, not at every look.
    expect(hosted.calls('GET /project')).toBeLessThanOrEqual(1);
  });

  it('reads each new task once and tells observers every list', async () => {
    const lists: string[] = [];
    watcher.observe({ onTasksListed: (_t, projectId) => void lists.push(projectId) });
    const id = hosted.addTask({ projectId: hosted.projects.website, name: 'New', assignees: [] });
    hosted.resetCalls();
    await advance(2 * INTERVAL);
    expect(announced.map((t) => t.taskId)).toEqual([id]);
    expect(hosted.calls('GET /task/:id')).toBe(1);
    expect(lists).toHaveLength(6);
  });

  it('reads a burst of new tasks over several looks, each once', async () => {
    const before = announced.length;
    const ids = Array.from({ length: READS_PER_LOOK + 10 }, (_, i) =>
      hosted.addTask({ projectId: hosted.projects.onboarding, name: `Imported ${i}` }),
    );
    hosted.resetCalls();
    await advance(INTERVAL);
    expect(announced.length - before).toBe(READS_PER_LOOK);
    await advance(2 * INTERVAL);
    expect(
      announced
        .slice(before)
        .map((t) => t.taskId)
        .sort(),
    ).toEqual([...ids].sort());
    expect(hosted.calls('GET /task/:id')).toBe(ids.length);
  });

  it('waits out a 429 Retry-After for the whole workspace', async () => {
    hosted.resetCalls();
    hosted.rateLimit(1, 300);
    await advance(INTERVAL);
    const during = hosted.calls('GET /task');
    expect(during).toBeLessThanOrEqual(1);
    await advance(4 * INTERVAL);
    expect(hosted.calls('GET /task')).toBe(during);
    await advance(2 * INTERVAL);
    expect(hosted.calls('GET /task')).toBeGreaterThan(during);
  });

  it('logs a service that is down once, not at every look, and its recovery once', async () => {
    logs.length = 0;
    hosted.proxyFailures(1_000_000);
    await advance(3 * INTERVAL);
    hosted.proxyFailures(0);
    await advance(2 * INTERVAL);
    expect(logs.filter((l) => l.includes('cannot look at the service'))).toHaveLength(1);
    expect(logs.filter((l) => l.includes('answers again'))).toHaveLength(1);
  });
});

describe('a create the service answers without the task', () => {
  let h: HostedHarness;
  beforeAll(async () => {
    h = await startHostedHarness({ connect: true, pollSeconds: 1, hosted: { bareWrites: true } });
    shortGrace(h);
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_GENERAL',
      h.hosted.projects.website,
      h.users.alice.id,
    );
  });
  afterAll(() => h?.stop());

  it('says so, and the watcher announces the task to its assignee once', async () => {
    const { website } = h.hosted.projects;
    await waitFor(
      async () =>
        (await h.worklink.store.watchState.looks(h.teamId)).some((l) => l.projectId === website),
      { timeoutMs: 4_000 },
    );
    const reply = await h.replyTo(await h.slack.slashCommand('add Bare answer @bob'));
    expect(reply.text).toBe(
      'Task created in *Website relaunch*; the service did not return its id. Its assignees are told when Worklink next looks at the project.',
    );
    const task = [...h.hosted.tasks.values()].find((t) => t.name === 'Bare answer')!;
    await waitFor(() => dmsAbout(h, task.id).U_BOB === 1, { timeoutMs: 4_000 });
    await pause(2_200);
    expect(dmsAbout(h, task.id)).toEqual({ U_BOB: 1 });
  });
});
