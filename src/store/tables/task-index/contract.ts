/**
 * task_index: what Worklink knows of each task of a team's service workspace — the service
 * has no search, no per-person list and (hosted) no events, so Worklink keeps this itself.
 * Fed by everything it sees (its own creates, updates, comments, service events, list
 * reads) and refreshed by src/sync/task-index-refresh.ts. Words are searched with FTS5
 * (task_index_fts, kept in step by triggers); assignees have their own table so "my tasks"
 * is one indexed look-up.
 */

export interface IndexedTask {
  teamId: string;
  taskId: string;
  projectId: string;
  number?: number;
  name: string;
  done: boolean;
  gone: boolean;
  /** The status's name when a read told it; else only `done` is known. */
  statusName?: string;
  /** yyyy-MM-dd. */
  dueDate?: string;
  priority?: number;
  assigneeIds: string[];
  creatorId?: string;
  /** Epoch ms of the last whole read (get task); undefined when known from a list only. */
  readAt?: number;
  seenAt: number;
}

/**
 * What one sighting tells. Absent fields leave the stored value as it is; `null` clears it
 * (a due date removed). `read: true` marks a whole read (get task), which resets the refresh
 * clock of the task.
 */
export interface TaskSighting {
  taskId: string;
  projectId?: string;
  name?: string;
  number?: number;
  done?: boolean;
  statusName?: string | null;
  dueDate?: string | null;
  priority?: number | null;
  assigneeIds?: string[];
  creatorId?: string;
  read?: boolean;
}

/** A known task whose told fields (seenDiffers) a sighting changed: its row before and after. */
export interface SeenChange {
  before: IndexedTask;
  after: IndexedTask;
}

/** What an open list showed: the indexed open tasks it no longer lists, and the changes. */
export interface OpenListSeen {
  /** As they were before the list closed them (open): a read tells whether done or gone. */
  closed: IndexedTask[];
  changed: SeenChange[];
}

/**
 * Whether a sighting changed what Worklink tells of a task: done, name, due date, priority,
 * assignees, or the status's name (when both are known: a list does not tell it). A task known
 * only from lists (never read whole: `readAt` unset) has unknown assignees, due date and
 * priority, so only its name and done flag can have changed.
 */
export function seenDiffers(a: IndexedTask, b: IndexedTask): boolean {
  if (a.done !== b.done || a.name !== b.name) return true;
  if (a.readAt === undefined) return false;
  const sameAssignees =
    a.assigneeIds.length === b.assigneeIds.length &&
    a.assigneeIds.every((id) => b.assigneeIds.includes(id));
  return (
    a.dueDate !== b.dueDate ||
    a.priority !== b.priority ||
    !sameAssignees ||
    (a.statusName !== undefined && b.statusName !== undefined && a.statusName !== b.statusName)
  );
}

export interface SearchOptions {
  projectId?: string;
  /** Leave done tasks out (default false: open ones first, then done). */
  openOnly?: boolean;
  limit?: number;
}

export interface TaskIndexStore {
  /** Records what a sighting tells (insert or merge). Ignored without a known project. */
  record(teamId: string, sighting: TaskSighting, now?: number): Promise<void>;
  /** Several sightings in one transaction. */
  recordMany(teamId: string, sightings: readonly TaskSighting[], now?: number): Promise<void>;
  /**
   * A project's whole open list, as the service answered it: each is open, and the project's
   * indexed open tasks missing from it are marked done (closed or deleted; a later read
   * tells which). Returns how many were closed that way.
   */
  sawOpenList(
    teamId: string,
    projectId: string,
    items: readonly { taskId: string; taskName?: string; number?: number }[],
    now?: number,
  ): Promise<number>;
  /**
   * `record`, telling what it changed: the rows before and after when the task was known and
   * its told fields differ (seenDiffers), in one unit of work — of two readers seeing one
   * change at once, one is told it. This is Worklink's durable "last known state" of a task:
   * reads compare with it, and Worklink's own writes (their answers) update it silently.
   */
  see(teamId: string, sighting: TaskSighting, now?: number): Promise<SeenChange | undefined>;
  /** `see` for several sightings in one unit of work (a whole or a done list). */
  seeMany(teamId: string, sightings: readonly TaskSighting[], now?: number): Promise<SeenChange[]>;
  /** `sawOpenList`, telling which tasks it closed and what the listed ones changed. */
  seeOpenList(
    teamId: string,
    projectId: string,
    items: readonly { taskId: string; taskName?: string; number?: number }[],
    now?: number,
  ): Promise<OpenListSeen>;
  /** The service said the task does not exist (any more). */
  markGone(teamId: string, taskId: string, now?: number): Promise<void>;
  get(teamId: string, taskId: string): Promise<IndexedTask | undefined>;
  /** The indexed tasks among `taskIds` (any state), in no particular order: one query. */
  getMany(teamId: string, taskIds: readonly string[]): Promise<IndexedTask[]>;
  byNumber(teamId: string, projectId: string, number: number): Promise<IndexedTask | undefined>;
  /** Tasks whose name has every word (prefixes, any order); open first, best match first. */
  search(teamId: string, words: string, options?: SearchOptions): Promise<IndexedTask[]>;
  /** Open tasks of a project whose names share words with `title` (any of them), best first. */
  similar(teamId: string, projectId: string, title: string, limit?: number): Promise<IndexedTask[]>;
  /** Open tasks assigned to a service user, in any project. */
  assignedTo(teamId: string, serviceUserId: string): Promise<IndexedTask[]>;
  /** Open tasks read longest ago (never read first): the refresh's next reads. */
  stalest(teamId: string, limit: number): Promise<IndexedTask[]>;
  /** Service users with open tasks (the digest's candidates). */
  assigneesWithOpenTasks(teamId: string): Promise<string[]>;
  count(teamId: string): Promise<{ open: number; done: number; gone: number }>;
  deleteTeam(teamId: string): Promise<number>;
}

/** What an open list tells of one of its tasks: open, in that project, maybe its name and number. */
export const listedSighting = (
  projectId: string,
  item: { taskId: string; taskName?: string; number?: number },
): TaskSighting => ({
  taskId: item.taskId,
  projectId,
  done: false,
  ...(item.taskName !== undefined ? { name: item.taskName } : {}),
  ...(item.number !== undefined ? { number: item.number } : {}),
});

/** yyyy-MM-dd of a service date (ISO date-time or plain date), else undefined. */
export function indexDate(value: string | null | undefined): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value ?? '');
  return m?.[1];
}
