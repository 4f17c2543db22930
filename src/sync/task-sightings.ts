/**
 * Feeds the task index from every answer a team's WorkClient gets, wherever the call was
 * made (commands, modals, buttons, the watcher, the refresh): the WorkClientCache hands each
 * new client to `indexWorkClient`, which wraps its task operations. Nothing here can fail a
 * call: indexing problems are logged and the answer goes through untouched.
 */
import { errMessage } from '../error-message.js';
import {
  type IndexedTask,
  type SeenChange,
  seenDiffers,
  type TaskIndexStore,
  type TaskSighting,
} from '../store/index.js';
import { isWorkApiError, type WorkClient } from '../workapi/client.js';
import {
  ACTIVITY_TYPE,
  priorityNumber,
  STATUS_TYPE,
  type StatusEntry,
  type Task,
  type TaskComment,
  type TaskListItem,
  type UpdatedTask,
} from '../workapi/contract.js';

import { SightingBatch } from './sighting-batch.js';

type Warn = (message: string) => void;

/**
 * The task's number: `taskNumber` (the embedded service's extension) or `TaskNumber` (hosted
 * answers), both read into `taskNumber` by the tolerant reader.
 */
function numberOf(o: { taskNumber?: number }): number | undefined {
  const n = o.taskNumber;
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** What a get/create task answer tells (a whole read). */
export function sightingFromTask(t: Task): TaskSighting {
  return {
    taskId: t.taskId,
    ...(t.projectId ? { projectId: t.projectId } : {}),
    ...(t.taskName !== undefined ? { name: t.taskName } : {}),
    ...(t.status !== undefined ? { done: t.status === true } : {}),
    ...(t.dueDate !== undefined ? { dueDate: t.dueDate } : {}),
    ...(t.priority !== undefined ? { priority: priorityNumber(t.priority) ?? null } : {}),
    ...(t.taskUsers ? { assigneeIds: t.taskUsers.map((u) => u.taskUserId) } : {}),
    ...(numberOf(t) ? { number: numberOf(t) } : {}),
    read: true,
  };
}

/** What an update task answer tells; `statuses` names the status when the project is known. */
export function sightingFromUpdated(u: UpdatedTask, statuses?: StatusEntry[]): TaskSighting {
  const status = u.StatusId ? statuses?.find((s) => s._id === u.StatusId) : undefined;
  const done = status?.Type !== undefined ? status.Type === STATUS_TYPE.done : u.Status;
  return {
    taskId: u._id,
    ...(u.ProjectId ? { projectId: u.ProjectId } : {}),
    ...(u.Name !== undefined ? { name: u.Name } : {}),
    ...(done !== undefined ? { done } : {}),
    ...(status?.Name ? { statusName: status.Name } : {}),
    ...(u.TaskNumber !== undefined ? { number: u.TaskNumber } : {}),
    ...(u.DueDate !== undefined ? { dueDate: u.DueDate } : {}),
    ...(u.Priority !== undefined ? { priority: u.Priority } : {}),
    ...(u.TaskUsers ? { assigneeIds: u.TaskUsers.map((x) => x._id) } : {}),
    ...(u.CreatedBy ? { creatorId: u.CreatedBy } : {}),
  };
}

export function sightingFromListItem(item: TaskListItem, projectId: string): TaskSighting {
  const number = numberOf(item);
  return {
    taskId: item.taskId,
    projectId,
    ...(item.taskName !== undefined ? { name: item.taskName } : {}),
    ...(number ? { number } : {}),
  };
}

/** A comment (Comments entry of Type 1) an answer carried. */
export interface SeenComment {
  commentId: string;
  text: string;
  by?: string;
  /** ISO date-time, when told. */
  at?: string;
}

/** The comments among a Comments array (other Types are change records). */
export function commentsOf(entries: readonly TaskComment[] | undefined): SeenComment[] {
  return (entries ?? []).flatMap((c) =>
    c.Type === ACTIVITY_TYPE.comment && c._id && typeof c.Comment === 'string'
      ? [
          {
            commentId: c._id,
            text: c.Comment,
            ...(c.CreatedBy ? { by: c.CreatedBy } : {}),
            ...(c.CreatedTime ? { at: c.CreatedTime } : {}),
          },
        ]
      : [],
  );
}

/**
 * Told when a read showed a known task changed since Worklink last knew it (the index's row:
 * its durable last known state). Worklink's own writes update that state silently: the
 * task-change owner tells those itself, so a later read of the same change tells nothing.
 */
export type SeenListener = (teamId: string, change: SeenChange) => void;

/** Tasks an open list no longer shows that are read at once to tell done from gone. */
export const CONFIRM_READS_PER_LIST = 20;

/**
 * Wraps the task operations of `client` (one team's) so their answers reach the index.
 * Statuses seen in project details are remembered (per client) to name a task's status
 * from an update answer's StatusId. With `onSeen`, reads (get task, lists) that show a known
 * task changed are told (the index decides, so two readers tell one change once).
 */
export function indexWorkClient(
  client: WorkClient,
  teamId: string,
  index: TaskIndexStore,
  warn: Warn = () => {},
  onSeen?: SeenListener,
  /** A comment Worklink posted (its id), so the service's event for it is not told again. */
  onCommented?: (teamId: string, commentId: string) => Promise<unknown>,
  /** The comments an answer carried (update task answers' `Comments`), to tell new ones. */
  onComments?: (teamId: string, taskId: string, comments: SeenComment[]) => void,
): WorkClient {
  const tell = (changes: readonly (SeenChange | undefined)[]) => {
    for (const change of changes) {
      if (!change) continue;
      try {
        onSeen?.(teamId, change);
      } catch (e) {
        warn(`Task index: telling a change of ${change.after.taskId} failed: ${errMessage(e)}`);
      }
    }
  };
  const statuses = new Map<string, StatusEntry[]>();
  // The answer goes on once the index has it, so whoever made the call reads it there next.
  const safely = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (e) {
      warn(`Task index: could not record ${what}: ${(e as Error).message}`);
    }
  };
  const goneOn404 = (taskId: string) => async (e: unknown) => {
    if (isWorkApiError(e) && e.status === 404) {
      await safely(`task ${taskId} as gone`, () => index.markGone(teamId, taskId));
    }
    throw e;
  };

  // Answers of one turn are written together (sighting-batch.ts).
  const reads = new SightingBatch(
    async (sightings) => {
      if (onSeen) return index.seeMany(teamId, sightings);
      await index.recordMany(teamId, sightings);
      return [];
    },
    (changes) => tell(changes),
  );
  const getTask = client.getTask.bind(client);
  client.getTask = (taskId) =>
    getTask(taskId).then(async (t) => {
      await safely(`task ${taskId}`, () => reads.add(sightingFromTask(t)));
      return t;
    }, goneOn404(taskId));

  /**
   * Open tasks a list no longer shows were closed or deleted: a read tells which. Compared
   * with the row as it was (open), since the list already marked it done.
   */
  const confirmClosed = async (closed: readonly IndexedTask[]) => {
    for (const was of closed.slice(0, CONFIRM_READS_PER_LIST)) {
      try {
        const t = await getTask(was.taskId);
        await index.record(teamId, sightingFromTask(t));
        const now = await index.get(teamId, was.taskId);
        if (now && seenDiffers(was, now)) tell([{ before: was, after: now }]);
      } catch (e) {
        if (isWorkApiError(e) && e.status === 404) {
          await safely(`task ${was.taskId} as gone`, () => index.markGone(teamId, was.taskId));
        } else {
          warn(`Task index: reading closed task ${was.taskId} failed: ${errMessage(e)}`);
        }
      }
    }
  };

  const createTask = client.createTask.bind(client);
  client.createTask = (body) =>
    createTask(body).then(async (t) => {
      // An answer without the task (any 2xx is success) has nothing to record.
      if (t) {
        await safely('a new task', () =>
          index.record(teamId, { projectId: body.projectId, ...sightingFromTask(t) }),
        );
      }
      return t;
    });

  const updateTask = client.updateTask.bind(client);
  client.updateTask = (taskId, body) =>
    updateTask(taskId, body).then(async (u) => {
      // Told even when empty: the first answer seen for a task marks where its comments start.
      if (u?.Comments && onComments) onComments(teamId, taskId, commentsOf(u.Comments));
      if (u) {
        await safely(`task ${taskId}`, () =>
          index.record(teamId, sightingFromUpdated(u, statuses.get(u.ProjectId ?? body.projectId))),
        );
      }
      return u;
    }, goneOn404(taskId));

  const postComment = client.postComment.bind(client);
  client.postComment = (taskId, body) =>
    postComment(taskId, body).then(async (c) => {
      const id = c?.commentId;
      if (id && onCommented) await safely(`comment ${id}`, () => onCommented(teamId, id));
      return c;
    });

  const listTasks = client.listTasks.bind(client);
  client.listTasks = (query) =>
    listTasks(query).then(async (items) => {
      const complete = query.complete === true || query.complete === 'true';
      const open = query.complete === false || query.complete === 'false';
      await safely(`the tasks of ${query.projectId}`, async () => {
        if (open) {
          const listed = items
            .map((i) => sightingFromListItem(i, query.projectId))
            .map((s) => ({ taskId: s.taskId, taskName: s.name, number: s.number }));
          if (!onSeen) {
            await index.sawOpenList(teamId, query.projectId, listed);
            return;
          }
          const seen = await index.seeOpenList(teamId, query.projectId, listed);
          tell(seen.changed);
          // In the background: the caller (a command, the watcher) does not wait for these.
          if (seen.closed.length) void confirmClosed(seen.closed);
        } else {
          // A whole list does not say which are open: it renames known tasks only (the
          // refresh, which reads open lists too, adds the rest).
          const seen = items.map((i) => sightingFromListItem(i, query.projectId));
          const known = complete
            ? seen
            : (
                await Promise.all(
                  seen.map(async (s) => ((await index.get(teamId, s.taskId)) ? s : undefined)),
                )
              ).filter((s) => s !== undefined);
          const sightings = complete ? known.map((s) => ({ ...s, done: true })) : known;
          if (onSeen) tell(await index.seeMany(teamId, sightings));
          else await index.recordMany(teamId, sightings);
        }
      });
      return items;
    });

  const getProjectDetails = client.getProjectDetails.bind(client);
  client.getProjectDetails = (projectId) =>
    getProjectDetails(projectId).then((d) => {
      if (d.Status) statuses.set(d._id, d.Status);
      return d;
    });

  return client;
}
