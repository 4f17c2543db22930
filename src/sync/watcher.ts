/**
 * New tasks found without events (docs/hosted-service.md, "New tasks without events").
 *
 * The hosted service sends no events, so for every connected workspace Worklink looks at
 * each watched project — channels' linked projects, projects used from Slack, and the
 * workspace's projects where the service lists them (`GET {base_url}/project`) — every
 * WORK_POLL_SECONDS. A look is ONE list call (the project's open tasks), compared with the
 * ids seen before (src/store/tables/watch-state/); only ids never seen are read (get task) and
 * queued in the outbox like a `task.created` event, so each assignee gets one DM whoever
 * made the task. The first look at a project only records what is there.
 *
 * Several instances on one database: each look is claimed first (src/store/tables/leases/, key
 * `watch:<team>:<project>`, due again one interval later), so one instance looks at a
 * project per interval; the others follow its next due time. An instance that looks after
 * another one reads the seen ids again (they changed). A look's lease (5 min) is far longer
 * than a look; an instance that dies mid-look leaves the project to the others when it ends.
 *
 * Looks are spread over the interval (each project has its own slot), a 429 pauses the
 * workspace for its Retry-After, and a workspace whose service fails is logged once when it
 * starts failing and once when it recovers, not at every look. Observers get every list it
 * reads (`onTasksListed`), e.g. the task index.
 *
 * One task that cannot be announced (its read fails, or queueing it does: a store that
 * refuses its text) never stops the look: the failure is recorded against that task, which
 * is tried again at later looks with a growing pause (failed-announces.ts), shown to admins
 * in `/work status`, and the look goes on with the other new tasks.
 */
import type { Logger } from '@slack/bolt';
import { errMessage } from '../error-message.js';
import { newInstanceId } from '../instance-id.js';
import { Periodic } from '../periodic.js';
import type { Store } from '../store/index.js';
import { isWorkApiError, type WorkClient } from '../workapi/client.js';
import type { Task, TaskListItem } from '../workapi/contract.js';
import { type FailedAnnounce, FailedAnnounces } from './failed-announces.js';

/** Gets each list of open tasks the watcher reads. Must not throw (errors are logged). */
export interface TasksListedObserver {
  onTasksListed(teamId: string, projectId: string, tasks: readonly TaskListItem[]): void;
}

export interface WatcherOptions {
  store: Store;
  logger: Pick<Logger, 'debug' | 'info' | 'warn'>;
  /** WORK_POLL_SECONDS × 1000; 0 turns the watcher off. */
  intervalMs: number;
  /** The team's WorkClient, or undefined when it is not connected. */
  workFor(teamId: string): Promise<WorkClient | undefined>;
  /** Queues the new task's DMs (the outbox); called at most once per task id and project. */
  announce(teamId: string, task: Task): Promise<unknown>;
  now?: () => number;
  /** Who this process is in the looks' leases (default: made up). */
  instanceId?: string;
  /** How often due looks are started (default: a tenth of the interval, at most 1 s). */
  stepMs?: number;
}

export interface WatchStatus {
  intervalMs: number;
  projects: { projectId: string; lookedAt?: number }[];
  /** Why the last look at this workspace failed, while it keeps failing. */
  problem?: string;
  /** New tasks that could not be announced yet (tried again with a growing pause). */
  failedTasks: FailedAnnounce[];
}

/** Projects the service lists are asked for again after this many intervals. */
const PROJECT_LIST_EVERY = 10;
/** Looks in flight per workspace. */
const CONCURRENCY = 4;
/**
 * New tasks read per look: a burst (an import of hundreds) is read over a few looks rather
 * than all at once; the rest stay unseen, so the next look reads them.
 */
export const READS_PER_LOOK = 50;
/** How long a look may take before another instance may make it instead. */
const LOOK_LEASE_MS = 5 * 60_000;

export class Watcher {
  readonly name = 'watcher';
  /** Calls made since start (the benchmark's figures). */
  readonly totals = { listCalls: 0, projectListCalls: 0, taskReads: 0, announced: 0 };
  private readonly observers: TasksListedObserver[] = [];
  /** `team:project` → epoch ms of its next look. */
  private readonly dueAt = new Map<string, number>();
  /** Seen ids, read once from the store per project. */
  private readonly seen = new Map<string, Set<string>>();
  private readonly pausedUntil = new Map<string, number>();
  private readonly problems = new Map<string, string>();
  private readonly failedAnnounces: FailedAnnounces;
  private readonly serviceProjects = new Map<string, { at: number; ids: string[] }>();
  /** The team's watched project ids, gathered again every few seconds (not every step). */
  private readonly watchedIds = new Map<string, { at: number; ids: string[] }>();
  /** `team:project` → epoch ms of the last look (kept in the store only when ids change). */
  private readonly lookedAt = new Map<string, number>();
  private rounds: Periodic | undefined;
  private readonly now: () => number;
  private readonly instanceId: string;

  constructor(private readonly options: WatcherOptions) {
    this.now = options.now ?? Date.now;
    this.instanceId = options.instanceId ?? newInstanceId();
    this.failedAnnounces = new FailedAnnounces(options.intervalMs);
  }

  get enabled(): boolean {
    return this.options.intervalMs > 0;
  }

  /** Adds an observer of every list read (the task index). */
  observe(observer: TasksListedObserver): void {
    this.observers.push(observer);
  }

  start(): void {
    if (!this.enabled || this.rounds) return;
    this.rounds = new Periodic({
      name: 'Watcher',
      intervalMs: this.options.stepMs ?? Math.min(1_000, this.options.intervalMs / 10),
      round: () => this.runDue(),
      logger: this.options.logger,
    });
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await this.rounds?.stop();
    this.rounds = undefined;
  }

  /** Every look that is due now, for every connected workspace. */
  async runDue(): Promise<void> {
    await Promise.all(
      (await this.options.store.connections.list()).map(({ teamId }) => this.runTeam(teamId)),
    );
  }

  /** Per team, when its least recently looked-at project was last looked at here (metrics). */
  oldestLooks(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [key, at] of this.lookedAt) {
      const team = key.slice(0, key.indexOf(':'));
      out.set(team, Math.min(out.get(team) ?? at, at));
    }
    return out;
  }

  async status(teamId: string): Promise<WatchStatus> {
    const looks = new Map(
      (await this.options.store.watchState.looks(teamId)).map((l) => [
        l.projectId,
        this.lookedAt.get(`${teamId}:${l.projectId}`) ?? l.lookedAt,
      ]),
    );
    const projects = [...this.dueAt.keys()]
      .filter((k) => k.startsWith(`${teamId}:`))
      .map((k) => k.slice(teamId.length + 1));
    for (const id of looks.keys()) if (!projects.includes(id)) projects.push(id);
    return {
      intervalMs: this.options.intervalMs,
      projects: projects.map((projectId) => ({ projectId, lookedAt: looks.get(projectId) })),
      problem: this.problems.get(teamId),
      failedTasks: this.failedAnnounces.list(teamId),
    };
  }

  private async runTeam(teamId: string): Promise<void> {
    const now = this.now();
    if ((this.pausedUntil.get(teamId) ?? 0) > now) return;
    const work = await this.options.workFor(teamId);
    if (!work) return;
    try {
      const due = (await this.watched(teamId, work, now)).filter(
        (p) => (this.dueAt.get(`${teamId}:${p}`) ?? 0) <= now,
      );
      const queue = await this.claim(teamId, due, now);
      const worker = async () => {
        for (let p = queue.shift(); p; p = queue.shift()) {
          try {
            await this.look(teamId, p, work);
          } finally {
            const next = this.dueAt.get(`${teamId}:${p}`) ?? this.now();
            await this.options.store.leases.finish(leaseKey(teamId, p), this.instanceId, next);
          }
        }
      };
      const looks = queue.length;
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
      // Only a look that was made and answered says the service is back.
      if (looks > 0) this.recovered(teamId);
    } catch (e) {
      this.failed(teamId, e);
    }
  }

  /**
   * Takes the due projects' looks (another instance may be making them, or have made them
   * this interval: then their next look here is when they are due again).
   */
  private async claim(teamId: string, due: string[], now: number): Promise<string[]> {
    const byKey = new Map(due.map((p) => [leaseKey(teamId, p), p]));
    const { taken, busy } = await this.options.store.leases.claim(
      [...byKey.keys()],
      this.instanceId,
      now,
      LOOK_LEASE_MS,
    );
    for (const b of busy) this.dueAt.set(`${teamId}:${byKey.get(b.key)}`, b.until);
    return taken.map(({ key, previousHolder }) => {
      const projectId = byKey.get(key)!;
      // Another instance looked last: the ids it saw are in the store, not here.
      if (previousHolder && previousHolder !== this.instanceId) {
        this.seen.delete(`${teamId}:${projectId}`);
      }
      return projectId;
    });
  }

  /** The team's watched projects; new ones get a slot in the interval. */
  private async watched(teamId: string, work: WorkClient, now: number): Promise<string[]> {
    const cached = this.watchedIds.get(teamId);
    const fresh = Math.min(this.options.intervalMs / 4, 5_000);
    if (cached && now - cached.at < fresh) return cached.ids;
    const ids = await this.gather(teamId, work, now);
    this.watchedIds.set(teamId, { at: now, ids });
    return ids;
  }

  private async gather(teamId: string, work: WorkClient, now: number): Promise<string[]> {
    const { store } = this.options;
    const ids = new Set<string>();
    for (const link of await store.channelProjects.listForTeam(teamId)) ids.add(link.projectId);
    for (const known of await store.knownProjects.list(teamId, 10_000)) ids.add(known.projectId);
    for (const id of await this.listedByService(teamId, work, now)) ids.add(id);
    const interval = this.options.intervalMs;
    for (const id of ids) {
      const key = `${teamId}:${id}`;
      if (!this.dueAt.has(key)) this.dueAt.set(key, now + (slot(key) % interval));
    }
    for (const key of this.dueAt.keys()) {
      if (key.startsWith(`${teamId}:`) && !ids.has(key.slice(teamId.length + 1))) {
        this.dueAt.delete(key);
        this.seen.delete(key);
      }
    }
    return [...ids];
  }

  /** `GET /project` where the service offers it, read again every few intervals. */
  private async listedByService(teamId: string, work: WorkClient, now: number) {
    const last = this.serviceProjects.get(teamId);
    if (last && now - last.at < PROJECT_LIST_EVERY * this.options.intervalMs) return last.ids;
    this.totals.projectListCalls++;
    let projects: Awaited<ReturnType<WorkClient['listProjects']>>;
    try {
      projects = await work.listProjects();
    } catch (e) {
      // Keep the last answer and ask again next interval; a 429 pauses the workspace.
      const retryAt = now - (PROJECT_LIST_EVERY - 1) * this.options.intervalMs;
      this.serviceProjects.set(teamId, { at: retryAt, ids: last?.ids ?? [] });
      if (isWorkApiError(e) && e.kind === 'rate_limited') throw e;
      return last?.ids ?? [];
    }
    const ids = (projects ?? []).map((p) => p.projectId);
    this.serviceProjects.set(teamId, { at: now, ids });
    for (const p of projects ?? []) {
      if (p.projectName)
        await this.options.store.knownProjects.remember(teamId, p.projectId, p.projectName);
    }
    return ids;
  }

  /** One look: list open tasks; read and announce the ids never seen. */
  private async look(teamId: string, projectId: string, work: WorkClient): Promise<void> {
    const key = `${teamId}:${projectId}`;
    const { store, intervalMs } = this.options;
    const slotAt = this.dueAt.get(key) ?? this.now();
    // Next slot: one interval on (also after a failure: no retry at every step); a look
    // that fell behind starts a new slot from now.
    this.dueAt.set(key, Math.max(slotAt + intervalMs, this.now() + intervalMs / 2));
    this.totals.listCalls++;
    let items: TaskListItem[];
    try {
      items = await work.listTasks({ projectId, complete: false });
    } catch (e) {
      // A project that is gone is not looked at again until something names it anew.
      if (isWorkApiError(e) && e.kind === 'not_found') {
        this.options.logger.debug(`Watcher: project ${projectId} of ${teamId} is gone`);
        this.dueAt.set(key, this.now() + PROJECT_LIST_EVERY * intervalMs);
        return;
      }
      throw e;
    }
    const now = this.now();
    this.tell(teamId, projectId, items);

    const seen = this.seen.get(key) ?? (await store.watchState.seenIds(teamId, projectId));
    if (!seen) {
      const ids = items.map((t) => t.taskId);
      await store.watchState.recordBaseline(teamId, projectId, ids, now);
      this.seen.set(key, new Set(ids));
      return;
    }
    this.seen.set(key, seen);
    const failed = this.failedAnnounces;
    failed.keepListed(teamId, projectId, new Set(items.map((t) => t.taskId)));
    const fresh = items
      .filter((t) => !seen.has(t.taskId) && failed.due(teamId, t.taskId, now))
      .slice(0, READS_PER_LOOK);
    const announced: string[] = [];
    for (const item of fresh) {
      try {
        if (await this.announceOne(teamId, projectId, item.taskId, work)) this.totals.announced++;
        failed.succeeded(teamId, item.taskId);
        announced.push(item.taskId);
      } catch (e) {
        // The whole service failing (or asking to wait) is the look's failure, not the task's.
        if (isWorkApiError(e) && TEAM_WIDE.has(e.kind)) throw e;
        const first = failed.record(teamId, projectId, item.taskId, errMessage(e), this.now());
        if (first) {
          this.options.logger.warn(
            `Watcher: task ${item.taskId} of ${teamId} could not be announced (${errMessage(e)}); the look goes on, and it is tried again later.`,
          );
        }
      }
    }
    this.lookedAt.set(key, now);
    // An idle look changes nothing durable: only new ids are written.
    if (announced.length > 0) await store.watchState.recordLook(teamId, projectId, now, announced);
    for (const id of announced) seen.add(id);
  }

  /** Reads a new task and queues its announcement; false when the service no longer has it. */
  private async announceOne(
    teamId: string,
    projectId: string,
    taskId: string,
    work: WorkClient,
  ): Promise<boolean> {
    this.totals.taskReads++;
    const task = await work.getTask(taskId).catch((e: unknown) => {
      if (isWorkApiError(e) && e.kind === 'not_found') return undefined;
      throw e;
    });
    // Queued before it is marked seen: a crash in between queues again (harmlessly).
    if (!task) return false;
    await this.options.announce(teamId, { projectId, ...task });
    return true;
  }

  private tell(teamId: string, projectId: string, items: readonly TaskListItem[]): void {
    for (const o of this.observers) {
      try {
        o.onTasksListed(teamId, projectId, items);
      } catch (e) {
        this.options.logger.warn(`Watcher: an observer failed: ${(e as Error).message}`);
      }
    }
  }

  private failed(teamId: string, e: unknown): void {
    if (isWorkApiError(e) && e.kind === 'rate_limited') {
      const wait = e.retryAfterMs ?? this.options.intervalMs;
      this.pausedUntil.set(teamId, this.now() + wait);
    }
    const message = errMessage(e);
    if (!this.problems.has(teamId)) {
      this.options.logger.warn(
        `Watcher: cannot look at the service of ${teamId} (${message}); trying again every interval.`,
      );
    }
    this.problems.set(teamId, message);
  }

  private recovered(teamId: string): void {
    if (this.problems.delete(teamId)) {
      this.options.logger.info(`Watcher: the service of ${teamId} answers again.`);
    }
  }
}

/** Failures of a task read that stop the whole look (the service, not the task). */
const TEAM_WIDE = new Set(['rate_limited', 'auth', 'timeout', 'network']);

const leaseKey = (teamId: string, projectId: string) => `watch:${teamId}:${projectId}`;

/** A stable spread of keys over the interval (FNV-1a). */
function slot(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
