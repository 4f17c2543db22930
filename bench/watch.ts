/**
 * `npm run bench:watch`: what looking for new tasks costs (src/sync/watcher.ts).
 *
 * 200 watched projects × 500 open tasks in a local hosted-style fake (test/support), one
 * connected workspace, WORK_POLL_SECONDS = 60 on a controlled clock (each simulated second
 * runs what is due, so a minute of the watcher takes as long as its calls). Phases:
 *   baseline  the first look at every project (records the ids, announces nothing);
 *   idle      nothing changes;
 *   busy      one new task a second, in a random project, each with an assignee.
 * Figures: service calls per (watcher) minute by kind, and app CPU per look, against a floor
 * measured in the same run: one bare list request per project (undici + JSON.parse).
 * Then the same watcher with the client Worklink really gives it — the one that feeds the task
 * index, first as before issue 22, then telling what a read shows changed
 * (src/sync/task-sightings.ts):
 *   index idle    nothing changes, the index fed, nothing told (today's look);
 *   told idle     nothing changes (what comparing every list with the index costs);
 *   told 1 %      1 % of all watched tasks change per interval, half renamed, half completed
 *                 (a completion is read once to tell done from gone).
 *
 *   npm run bench:watch -- --projects 200 --tasks 500 --minutes 3
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { createLogger } from '../src/logger.js';
import { openStore } from '../src/store/index.js';
import { queueFoundTask } from '../src/sync/found-task.js';
import { indexWorkClient } from '../src/sync/task-sightings.js';
import { Watcher } from '../src/sync/watcher.js';
import { WorkClient } from '../src/workapi/client.js';
import { startHostedFake } from '../test/support/hosted-fake.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '200' },
    tasks: { type: 'string', default: '500' },
    minutes: { type: 'string', default: '3' },
  },
});
const PROJECTS = Number(values.projects);
const TASKS = Number(values.tasks);
const MINUTES = Number(values.minutes);
const INTERVAL_MS = 60_000;

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

async function main() {
  const hosted = await startHostedFake();
  const projectIds = [hosted.projects.website, hosted.projects.onboarding];
  while (projectIds.length < PROJECTS) projectIds.push(hosted.addProject(`P${projectIds.length}`));
  projectIds.length = PROJECTS;
  for (const projectId of projectIds) {
    const have = [...hosted.tasks.values()].filter((t) => t.projectId === projectId).length;
    for (let i = have; i < TASKS; i++) {
      hosted.addTask({ projectId, name: `Task ${i}`, assignees: [hosted.users.bob] });
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'worklink-bench-watch-'));
  const store = openStore(dir);
  await store.connections.save({
    teamId: 'T_BENCH',
    workspaceId: 'w',
    workspaceName: 'Hosted Co',
    apiKey: hosted.apiKey,
    connectedBy: 'U_ALICE',
    connectedAt: new Date().toISOString(),
  });
  const work = new WorkClient({
    baseUrl: hosted.baseUrl,
    altUrl: hosted.altUrl,
    apiKey: hosted.apiKey,
  });
  let clock = Date.parse('2026-11-22T10:00:00Z');
  const watcher = new Watcher({
    store,
    logger: createLogger('warn'),
    intervalMs: INTERVAL_MS,
    now: () => clock,
    workFor: async () => work,
    announce: (teamId, task) => queueFoundTask(store, teamId, task, { now: clock, graceMs: 5_000 }),
  });

  // Floor: one bare list request per project, parsed, in this process (second of two
  // rounds, so neither side pays for warming up).
  const bareLists = async () => {
    for (const projectId of projectIds) {
      const url = `${hosted.baseUrl}/task?projectId=${projectId}&complete=false`;
      const res = await request(url, { headers: { apiKey: hosted.apiKey } });
      JSON.parse(await res.body.text());
    }
  };
  await bareLists();
  const floorCpu = process.cpuUsage();
  const floorStart = performance.now();
  await bareLists();
  const floorPerList = cpuMs(floorCpu) / PROJECTS;
  const floorWall = (performance.now() - floorStart) / PROJECTS;

  /** Times told of a change (counted by the change-telling client below). */
  let told = 0;
  /**
   * Runs `minutes` of one watcher's time; `each` runs every simulated second first. `settle`
   * lets the background reads of tasks a list no longer shows finish before counting.
   */
  async function runWatcher(w: Watcher, minutes: number, each?: () => void, settle = false) {
    hosted.resetCalls();
    const before = { ...w.totals };
    const toldBefore = told;
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let s = 0; s < minutes * 60; s++) {
      each?.();
      clock += 1_000;
      await w.runDue();
    }
    if (settle) await new Promise((r) => setTimeout(r, 200));
    const looks = w.totals.listCalls - before.listCalls;
    return {
      perMinute: {
        lists: hosted.calls('GET /task') / minutes,
        reads: hosted.calls('GET /task/:id') / minutes,
        projectLists: hosted.calls('GET /project') / minutes,
        all: hosted.calls() / minutes,
      },
      announced: w.totals.announced - before.announced,
      told: told - toldBefore,
      cpuPerLook: cpuMs(cpu) / Math.max(1, looks),
      wallPerLook: (performance.now() - start) / Math.max(1, looks),
    };
  }
  const run = (minutes: number, each?: () => void) => runWatcher(watcher, minutes, each);

  const baseline = await run(1);
  const idle = await run(MINUTES);
  let n = 0;
  const busy = await run(MINUTES, () => {
    const projectId = projectIds[Math.floor(Math.random() * projectIds.length)] ?? '';
    hosted.addTask({ projectId, name: `New ${n++}`, assignees: [hosted.users.carol] });
  });
  // One more interval with nothing new: the tasks of the busy phase's last minute are found.
  const drain = await run(1);

  // The same watcher, with the index-feeding client as before issue 22 (records, tells
  // nothing: today's look) and with the change-telling one (onSeen).
  let tellChanges = false;
  const toldWork = indexWorkClient(
    new WorkClient({ baseUrl: hosted.baseUrl, altUrl: hosted.altUrl, apiKey: hosted.apiKey }),
    'T_BENCH',
    store.taskIndex,
    (m) => console.warn(m),
    () => {
      told++;
    },
  );
  const indexWork = indexWorkClient(
    new WorkClient({ baseUrl: hosted.baseUrl, altUrl: hosted.altUrl, apiKey: hosted.apiKey }),
    'T_BENCH',
    store.taskIndex,
    (m) => console.warn(m),
  );
  const telling = new Watcher({
    store,
    logger: createLogger('warn'),
    intervalMs: INTERVAL_MS,
    now: () => clock,
    workFor: async () => (tellChanges ? toldWork : indexWork),
    announce: (teamId, task) => queueFoundTask(store, teamId, task, { now: clock, graceMs: 5_000 }),
  });
  const runTold = (minutes: number, each?: () => void) => runWatcher(telling, minutes, each, true);
  // The first interval fills the index (every listed task is new to it).
  await runTold(1);
  const indexIdle = await runTold(MINUTES);
  tellChanges = true;
  const toldIdle = await runTold(MINUTES);
  const perSecond = (PROJECTS * TASKS) / 100 / 60;
  let changed = 0;
  const open = () => [...hosted.tasks.values()].filter((t) => !t.done);
  let pool = open();
  const toldBusy = await runTold(MINUTES, () => {
    for (let i = 0; i < perSecond; i++) {
      const t = pool[Math.floor(Math.random() * pool.length)];
      if (!t || t.done) continue;
      if (changed++ % 2 === 0) t.name = `${t.name}′`;
      else hosted.completeTask(t.id);
    }
    if (changed % 500 === 0) pool = open();
  });

  const fmt = (x: number) => x.toFixed(2);
  const line = (name: string, r: Awaited<ReturnType<typeof runWatcher>>) =>
    `${name.padEnd(9)} calls/min ${fmt(r.perMinute.all).padStart(7)} (lists ${fmt(r.perMinute.lists)}, task reads ${fmt(r.perMinute.reads)}, project lists ${fmt(r.perMinute.projectLists)})  ` +
    `CPU/look ${fmt(r.cpuPerLook)} ms = ${fmt(r.cpuPerLook / floorPerList)}× floor  wall/look ${fmt(r.wallPerLook)} ms  announced ${r.announced}`;
  console.log(
    `bench:watch — ${PROJECTS} watched projects × ${TASKS} open tasks, WORK_POLL_SECONDS=60 (controlled clock), ${MINUTES} min per phase`,
  );
  console.log(
    `floor     one bare list request per project: CPU ${fmt(floorPerList)} ms, wall ${fmt(floorWall)} ms`,
  );
  console.log(line('baseline', baseline));
  console.log(line('idle', idle));
  console.log(line('busy 1/s', busy));
  console.log(
    `idle list calls per project per interval: ${fmt(idle.perMinute.lists / PROJECTS)} (target 1.00); idle task reads: ${idle.perMinute.reads}`,
  );
  console.log(
    `busy: ${n} tasks made; announced ${busy.announced} during it and ${drain.announced} in the next interval (${busy.announced + drain.announced} of ${n}); ${busy.perMinute.reads * MINUTES + drain.perMinute.reads} task reads (one per new task)`,
  );
  const toldLine = (name: string, r: Awaited<ReturnType<typeof runWatcher>>) =>
    `${line(name, r)}  told ${r.told}`;
  console.log(toldLine('index idle', indexIdle));
  console.log(toldLine('told idle', toldIdle));
  console.log(toldLine('told 1 %', toldBusy));
  console.log(
    `telling changes: ${changed} changes made (${fmt(perSecond * 60)} per interval), ${toldBusy.told} told; ` +
      `per look ${fmt(toldBusy.perMinute.all / Math.max(1, toldBusy.perMinute.lists))} calls, CPU ${fmt(toldBusy.cpuPerLook)} ms ` +
      `vs today's idle look (index-feeding client) ${fmt(indexIdle.cpuPerLook)} ms (${fmt(toldBusy.cpuPerLook / Math.max(0.001, indexIdle.cpuPerLook))}×) and the told idle look ${fmt(toldIdle.cpuPerLook)} ms`,
  );
  await store.close();
  await hosted.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
