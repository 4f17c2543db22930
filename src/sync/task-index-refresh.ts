/**
 * Keeps the task index fresh by reading again, within a read budget per workspace.
 *
 * The numbers (docs/scaling.md, "The task index"): every minute, each connected workspace gets
 * WORK_INDEX_READS_PER_MINUTE service reads (default READS_PER_MINUTE = 40). List reads come
 * first: each watched project's open list every 5 minutes (tasks missing from it are marked
 * done; a later read says whether they are gone) and its whole list every 30 minutes
 * (TaskNumbers, which the list orders by). The rest of the budget re-reads open tasks with get
 * task, the one read longest ago first. At 500 open tasks in 10 watched projects that is 2 +
 * 0.3 list reads and ≥ 37 task reads a minute at the default: every open task is re-read
 * within 14 minutes (the aim is 30). To re-read N open tasks in P watched projects every 30
 * minutes takes N / 30 + P × 7 / 30 reads a minute (docs/scaling.md, "The task index"). Answers
 * reach the index through the wrapped WorkClient (task-sightings.ts), as every other read.
 *
 * Watched projects: the channels' linked projects and the projects used from Slack
 * (known_projects). The watcher (watcher.ts) lists the same open lists every
 * WORK_POLL_SECONDS; it tells this refresh (onTasksListed), which then skips those reads.
 *
 * Several instances on one database: each team's round is claimed first (src/store/tables/leases/,
 * key `index:<team>`, due again a minute later), so the budget is the team's, not each
 * instance's.
 */
import type { Logger } from '@slack/bolt';
import { newInstanceId } from '../instance-id.js';
import { Periodic } from '../periodic.js';
import type { IndexedTask, Store } from '../store/index.js';
import { runLeased } from '../store/index.js';
import type { WorkClient } from '../workapi/client.js';
import type { TasksListedObserver } from './watcher.js';

export const READS_PER_MINUTE = 40;
export const OPEN_LIST_EVERY_MS = 5 * 60_000;
export const WHOLE_LIST_EVERY_MS = 30 * 60_000;
const TICK_MS = 60_000;
/** Reads in flight per workspace: gentle on the service, quick enough for 40 a minute. */
const CONCURRENCY = 4;

export interface RefreshDeps {
  store: Store;
  logger: Pick<Logger, 'debug' | 'warn'>;
  /** The team's WorkClient (the wrapped, index-feeding one), or undefined when not connected. */
  workFor(teamId: string): Promise<WorkClient | undefined>;
  now?: () => number;
  /** How often a round runs (default a minute). */
  intervalMs?: number;
  /** Who this process is in the rounds' leases (default: made up). */
  instanceId?: string;
  /**
   * Told when a re-read finds a task changed in what Slack shows (name, status, due date,
   * assignees), so the messages about it are updated and new assignees told (src/activity/seen.ts).
   */
  onChanged?(teamId: string, was: IndexedTask, now: IndexedTask): void;
}

export interface RefreshReport {
  listReads: number;
  taskReads: number;
  closed: number;
}

export class TaskIndexRefresh implements TasksListedObserver {
  /** When each (team, project) list was last read, by kind. */
  private readonly listedAt = new Map<string, number>();
  private readonly rounds: Periodic;
  /** Totals since start (the benchmark's reads per minute). */
  readonly totals = { listReads: 0, taskReads: 0 };
  private readonly instanceId: string;

  constructor(
    private readonly deps: RefreshDeps,
    private readonly budget = READS_PER_MINUTE,
  ) {
    this.instanceId = deps.instanceId ?? newInstanceId();
    this.rounds = new Periodic({
      name: 'Task index refresh',
      intervalMs: deps.intervalMs ?? TICK_MS,
      round: () => this.runAll(),
      logger: deps.logger,
    });
  }

  readonly name = 'task index refresh';

  start(): void {
    this.rounds.start();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round for every connected workspace whose round no other instance made. */
  async runAll(): Promise<void> {
    const { store } = this.deps;
    const now = this.deps.now?.() ?? Date.now();
    const teams = (await store.connections.list()).map((c) => c.teamId);
    const interval = this.deps.intervalMs ?? TICK_MS;
    await runLeased(
      store.leases,
      teams.map((t) => `index:${t}`),
      // Due again a little before the next tick: timers drift, and a round must not be missed.
      { holder: this.instanceId, now, leaseMs: 5 * interval, nextAt: now + 0.9 * interval },
      async (key) => {
        await this.runTeam(key.slice('index:'.length));
      },
      (key, e) =>
        this.deps.logger.warn(
          `Task index refresh of ${key.slice('index:'.length)} failed: ${(e as Error).message}`,
        ),
    );
  }

  /** One budgeted round for a workspace. */
  async runTeam(teamId: string): Promise<RefreshReport> {
    const work = await this.deps.workFor(teamId);
    const report: RefreshReport = { listReads: 0, taskReads: 0, closed: 0 };
    if (!work) return report;
    const now = this.deps.now?.() ?? Date.now();
    const { store } = this.deps;
    let budget = this.budget;
    // What the open tasks looked like before this round's reads, to tell what changed.
    const before = this.deps.onChanged ? await store.taskIndex.stalest(teamId, 100_000) : [];

    for (const projectId of await watchedProjects(store, teamId)) {
      for (const kind of ['open', 'whole'] as const) {
        const every = kind === 'open' ? OPEN_LIST_EVERY_MS : WHOLE_LIST_EVERY_MS;
        if (budget <= 0 || !this.due(teamId, projectId, kind, every, now)) continue;
        budget--;
        report.listReads++;
        report.closed += await this.readList(teamId, projectId, kind, work, now);
      }
    }

    const stale = await store.taskIndex.stalest(teamId, Math.max(0, budget));
    let next = 0;
    const worker = async () => {
      while (next < stale.length) {
        const task = stale[next++];
        report.taskReads++;
        // A 404 marks the task gone (task-sightings.ts); other failures wait for next time.
        await work.getTask(task!.taskId).catch((e: unknown) => {
          this.deps.logger.debug(
            `Task index: reading ${task!.taskId} failed (read again later): ${(e as Error).message}`,
          );
        });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // The same tasks as they are now, in one query (not one per open task).
    const after = new Map(
      (
        await store.taskIndex.getMany(
          teamId,
          before.map((t) => t.taskId),
        )
      ).map((t) => [t.taskId, t]),
    );
    for (const was of before) {
      const now = after.get(was.taskId);
      if (now && shownDiffers(was, now)) this.deps.onChanged?.(teamId, was, now);
    }
    this.totals.listReads += report.listReads;
    this.totals.taskReads += report.taskReads;
    return report;
  }

  /**
   * The watcher listed a project's open tasks (its answer reached the index through the
   * wrapped client): that list need not be read again for a while.
   */
  onTasksListed(teamId: string, projectId: string): void {
    this.listedAt.set(`${teamId}:${projectId}:open`, this.deps.now?.() ?? Date.now());
  }

  /**
   * Reads a project's lists now (a look-up found nothing), unless that was done in the last
   * minute. True when it read.
   */
  async listProject(teamId: string, projectId: string, work: WorkClient): Promise<boolean> {
    const now = this.deps.now?.() ?? Date.now();
    if (!this.due(teamId, projectId, 'open', 60_000, now)) return false;
    await this.readList(teamId, projectId, 'open', work, now);
    await this.readList(teamId, projectId, 'whole', work, now);
    this.totals.listReads += 2;
    return true;
  }

  private due(teamId: string, projectId: string, kind: string, every: number, now: number) {
    const last = this.listedAt.get(`${teamId}:${projectId}:${kind}`);
    return last === undefined || now - last >= every;
  }

  /** One list read; returns how many open tasks it found closed. Failures wait. */
  private async readList(
    teamId: string,
    projectId: string,
    kind: 'open' | 'whole',
    work: WorkClient,
    now: number,
  ): Promise<number> {
    const { store } = this.deps;
    this.listedAt.set(`${teamId}:${projectId}:${kind}`, now);
    try {
      if (kind === 'whole') {
        await sawWholeList(store, teamId, projectId, await work.listTasks({ projectId }));
        return 0;
      }
      const before = (await store.taskIndex.count(teamId)).open;
      await work.listTasks({ projectId, complete: false });
      return Math.max(0, before - (await store.taskIndex.count(teamId)).open);
    } catch (e) {
      this.deps.logger.debug(`Task index: listing ${projectId} failed: ${(e as Error).message}`);
      return 0;
    }
  }
}

export async function watchedProjects(store: Store, teamId: string): Promise<string[]> {
  const ids = new Set((await store.channelProjects.listForTeam(teamId)).map((l) => l.projectId));
  for (const p of await store.knownProjects.list(teamId, 500)) ids.add(p.projectId);
  return [...ids];
}

/**
 * A project's whole list (read minutes after its open list): tasks the index does not know
 * are done ones. The list is ordered by TaskNumber, so a task's place is its number when
 * the list has no gaps; numbers the index already knows check that, and one disagreement (a
 * deleted task) keeps the order from being used for this project.
 */
export async function sawWholeList(
  store: Store,
  teamId: string,
  projectId: string,
  items: readonly { taskId: string; taskName?: string }[],
): Promise<void> {
  const rows = await Promise.all(
    items.map(async (item, i) => ({
      item,
      place: i + 1,
      row: await store.taskIndex.get(teamId, item.taskId),
    })),
  );
  const ordered = !rows.some((r) => r.row?.number !== undefined && r.row.number !== r.place);
  await store.taskIndex.recordMany(
    teamId,
    rows
      .filter((r) => !r.row || (ordered && r.row.number === undefined))
      .map((r) => ({
        taskId: r.item.taskId,
        projectId,
        ...(r.row ? {} : { done: true, name: r.item.taskName ?? '' }),
        ...(ordered ? { number: r.place } : {}),
      })),
  );
}

/** Whether what Slack's messages show of a task differs between two index rows. */
function shownDiffers(a: IndexedTask, b: IndexedTask): boolean {
  return (
    a.name !== b.name ||
    a.done !== b.done ||
    a.dueDate !== b.dueDate ||
    a.assigneeIds.join() !== b.assigneeIds.join()
  );
}
