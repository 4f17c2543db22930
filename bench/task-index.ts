/**
 * The task index at size: one workspace of 50 projects × 1,000 tasks (50,000) in a real
 * SQLite file. Prints, each against a floor measured in the same run:
 * - find by words: the app's resolver (parse, FTS5 query, rows, ranking; tasks/find-task.ts)
 *   p50/p99 vs a bare FTS5 MATCH on the same table;
 * - `/work list mine` reply: the person's open tasks from the index, grouped in their time
 *   zone and rendered as the message (everything but the HTTP hop), p50/p99, vs a bare
 *   indexed SELECT of the same rows;
 * - index refresh: service reads per minute per workspace at the configured budget
 *   (WORK_INDEX_READS_PER_MINUTE, default 40), how long one round takes against an instant
 *   service with the sightings path (task-sightings.ts), how often each open task is re-read
 *   at that budget, and the budget that re-reads them all every 30 minutes;
 * - RSS.
 * Aims: find p50 < 5 ms, list mine p50 < 30 ms.
 *
 *   npm run bench:index [-- --projects 50 --tasks 1000]
 *   WORK_INDEX_READS_PER_MINUTE=1700 npm run bench:index
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import type { WorkContext } from '../src/slack/context/work-context.js';
import { findTask, parseTaskRef } from '../src/slack/tasks/find-task.js';
import { dateIn } from '../src/slack/tasks/mine/due-groups.js';
import { mineRows } from '../src/slack/tasks/mine/load.js';
import { mineMessage } from '../src/slack/tasks/mine/my-tasks-view.js';
import type { TaskSighting } from '../src/store/index.js';
import { openStore } from '../src/store/index.js';
import { READS_PER_MINUTE, TaskIndexRefresh } from '../src/sync/task-index-refresh.js';
import { indexWorkClient } from '../src/sync/task-sightings.js';
import type { WorkClient } from '../src/workapi/client.js';
import { sqliteHandle } from '../test/support/sqlite-handle.js';

const { values } = parseArgs({
  options: {
    projects: { type: 'string', default: '50' },
    tasks: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '2000' },
  },
});
const PROJECTS = Number(values.projects);
const PER_PROJECT = Number(values.tasks);
const RUNS = Number(values.runs);
const TEAM = 'T_BENCH';
const USERS = Array.from({ length: 50 }, (_, i) => `user${String(i).padStart(20, '0')}`);
const WORDS = (
  'fix login page button update copy deck design home review release notes migrate database ' +
  'invoice customer report export import search filter sort mobile layout email template ' +
  'onboarding checklist payment refund cache timeout retry sitemap banner pricing table ' +
  'analytics dashboard chart audit security password reset upload avatar profile settings'
).split(' ');

/** A deterministic pseudo-random sequence (same data every run). */
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const hex = (n: number, width = 24) => n.toString(16).padStart(width, '0');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function time(runs: number, fn: (i: number) => unknown): { p50: number; p99: number } {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

async function timeAsync(runs: number, fn: (i: number) => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

const f = (n: number) => `${n.toFixed(3)} ms`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'worklink-bench-index-'));
  const store = openStore(dir);
  try {
    const total = PROJECTS * PER_PROJECT;
    console.log(`Filling the index: ${PROJECTS} projects × ${PER_PROJECT} tasks = ${total}.`);
    const t0 = performance.now();
    const projectIds = Array.from({ length: PROJECTS }, (_, p) => hex(p + 1));
    for (const [p, projectId] of projectIds.entries()) {
      await store.knownProjects.remember(TEAM, projectId, `Project ${p + 1}`);
      const batch: TaskSighting[] = [];
      for (let n = 1; n <= PER_PROJECT; n++) {
        const due =
          rand() < 0.7 ? `2026-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-15` : null;
        batch.push({
          taskId: hex(0x1_000_000 + p * PER_PROJECT + n),
          projectId,
          number: n,
          name: `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`,
          done: rand() < 0.3,
          dueDate: due,
          priority: Math.floor(rand() * 5),
          assigneeIds: [pick(USERS), ...(rand() < 0.3 ? [pick(USERS)] : [])],
          read: true,
        });
      }
      await store.taskIndex.recordMany(TEAM, batch);
    }
    console.log(`  filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // ── Find by words ────────────────────────────────────────────────────────
    const queries = Array.from({ length: 200 }, () => `${pick(WORDS)} ${pick(WORDS).slice(0, 4)}`);
    const ctx = {
      store,
      teamId: TEAM,
      userId: 'U_BENCH',
      deps: { store, indexRefresh: undefined },
      connection: undefined,
    } as unknown as WorkContext;
    const bare = sqliteHandle(store).prepare(
      'SELECT rowid FROM task_index_fts WHERE task_index_fts MATCH ? LIMIT 6',
    );
    const bareFind = time(RUNS, (i) => {
      const [a, b] = queries[i % queries.length]!.split(' ');
      return bare.all(`"${a}"* AND "${b}"*`);
    });
    const appFind = await timeAsync(RUNS, (i) =>
      findTask(ctx, parseTaskRef(queries[i % queries.length]!)!),
    );
    console.log(`\nFind by words (top 6 of ${total} tasks in one workspace):`);
    console.log(`  app (findTask)   p50 ${f(appFind.p50)}  p99 ${f(appFind.p99)}`);
    console.log(`  bare FTS5 MATCH  p50 ${f(bareFind.p50)}  p99 ${f(bareFind.p99)}`);
    console.log(
      `  app / bare p50 ×${(appFind.p50 / bareFind.p50).toFixed(1)}; aim p50 < 5 ms: ${appFind.p50 < 5 ? 'met' : 'NOT met'}`,
    );

    // ── List mine ────────────────────────────────────────────────────────────
    const today = dateIn('Europe/Berlin', Date.parse('2026-06-10T10:00:00Z'));
    const bareMine = sqliteHandle(store).prepare(
      `SELECT t.* FROM task_index_assignees a CROSS JOIN task_index t
         ON t.team_id = a.team_id AND t.task_id = a.task_id
       WHERE a.team_id = ? AND a.user_id = ? AND t.done = 0 AND t.gone = 0`,
    );
    const bareList = time(RUNS / 4, (i) => bareMine.all(TEAM, USERS[i % USERS.length]));
    let rows = 0;
    const appList = await timeAsync(RUNS / 4, async (i) => {
      const mine = await mineRows(ctx, [USERS[i % USERS.length]!], today);
      rows = mine.length;
      return mineMessage(
        { slackUserId: 'U_BENCH', own: true, name: 'Bench', today, rows: mine },
        0,
      );
    });
    console.log(`\n/work list mine reply (a person with ~${rows} open tasks, page 1):`);
    console.log(`  app (index + grouping + blocks)  p50 ${f(appList.p50)}  p99 ${f(appList.p99)}`);
    console.log(
      `  bare indexed SELECT              p50 ${f(bareList.p50)}  p99 ${f(bareList.p99)}`,
    );
    console.log(
      `  app / bare p50 ×${(appList.p50 / bareList.p50).toFixed(1)}; aim p50 < 30 ms: ${appList.p50 < 30 ? 'met' : 'NOT met'}`,
    );

    // ── Refresh ──────────────────────────────────────────────────────────────
    // An instant service answering from the same data: what the refresh costs Worklink.
    const open = new Map<string, { taskId: string; taskName: string }[]>();
    for (const projectId of projectIds) open.set(projectId, []);
    for (const t of await store.taskIndex.stalest(TEAM, total)) {
      open.get(t.projectId)?.push({ taskId: t.taskId, taskName: t.name });
    }
    const service = {
      listTasks: async (q: { projectId: string; complete?: boolean | string }) =>
        q.complete === false ? (open.get(q.projectId) ?? []) : (open.get(q.projectId) ?? []),
      getTask: async (taskId: string) => {
        const t = (await store.taskIndex.get(TEAM, taskId))!;
        return {
          taskId,
          taskName: t.name,
          projectId: t.projectId,
          status: t.done,
          dueDate: t.dueDate ? `${t.dueDate}T00:00:00.000Z` : null,
          priority: String(t.priority ?? 0),
          taskUsers: t.assigneeIds.map((id) => ({ taskUserId: id })),
        };
      },
      createTask: async () => ({}),
      updateTask: async () => ({}),
      getProjectDetails: async () => ({}),
    } as unknown as WorkClient;
    const work = indexWorkClient(service, TEAM, store.taskIndex);
    store.connections.list = async () => [];
    const budget = loadConfig().workIndexReadsPerMinute ?? READS_PER_MINUTE;
    const refresh = new TaskIndexRefresh(
      { store, logger: console, workFor: async () => work },
      budget,
    );
    const rounds: number[] = [];
    let reads = 0;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const r = await refresh.runTeam(TEAM);
      rounds.push(performance.now() - t);
      reads = r.listReads + r.taskReads;
    }
    rounds.sort((a, b) => a - b);
    console.log('\nIndex refresh (one round a minute per workspace):');
    const openTasks = (await store.taskIndex.count(TEAM)).open;
    // Lists per minute: each project's open list every 5 minutes and whole list every 30.
    const listsPerMinute = (PROJECTS * 7) / 30;
    const taskReads = Math.max(1, budget - listsPerMinute);
    console.log(
      `  service reads per minute: ${reads} (WORK_INDEX_READS_PER_MINUTE ${budget}${budget === READS_PER_MINUTE ? ', the default' : ''})`,
    );
    console.log(
      `  a round at ${total} tasks against an instant service: p50 ${f(percentile(rounds, 50))}`,
    );
    console.log(
      `  each of the ${openTasks} open tasks re-read every ${Math.ceil(openTasks / taskReads)} min at this budget (aim 30); every 30 min needs ${Math.ceil(openTasks / 30 + listsPerMinute)} reads a minute`,
    );

    const rss = process.memoryUsage().rss / 2 ** 20;
    console.log(`\nRSS: ${rss.toFixed(0)} MiB with ${total} tasks indexed.`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
