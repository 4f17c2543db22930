/**
 * `seen`: the single entry for task changes Worklink SAW rather than made — the index
 * refresh re-reading a task, the watcher finding a new one, the service's event, the edit
 * form comparing before and after its own save. It tells what the two looks differ in:
 *
 * - no `before` (a task new to Worklink): its creator is noted (task_creators) and `created`
 *   is emitted (the channel feeds post it; nobody is DMed here — the outbox rows of found
 *   tasks and events are queued by their own paths, sync/found-task.ts and the events
 *   receiver);
 * - otherwise the live messages are refreshed, new assignees emitted as `assigned`, and —
 *   only when the caller made the status change itself (`status`) — `completed` / `reopened`.
 *   The index refresh passes no `status`: a status it sees change may be Worklink's own
 *   change, already told by the verb that made it (an assignment is one DM per person
 *   whoever tells it).
 *
 * `seenChange` tells a change a read or a service event already described (sync/seen-change.ts)
 * through the same telling, every field included.
 *
 * Returns at once; never throws. Below src/slack, so src/sync calls it without reaching up;
 * the task-change owner (src/slack/tasks/changes.ts) exposes it as its `seen` verb.
 */
import { errMessage } from '../error-message.js';
import type { Store } from '../store/index.js';
import type { Actor, FieldChange, TaskActivityHub } from './hub.js';

/** What is known of a task's new state (update task answers these); live messages use it. */
export interface ChangeHint {
  number?: number;
  /** The status id (get task has only a done flag). */
  statusId?: string;
}

/** The live messages (src/slack/live), as `seen` tells them: refresh the task's messages. */
export interface LiveRefresh {
  /** Queue a refresh of the task's messages; returns at once. */
  taskChanged(teamId: string, taskId: string, hint?: ChangeHint): void;
}

/** What a look at a task tells (an index row, task facts and events all have it). */
export interface SeenTask {
  taskId: string;
  projectId?: string;
  assigneeIds: readonly string[];
  done: boolean;
}

export interface SeenOptions {
  /** Who made the change, when known (the edit form; an event's actor; a task's creator). */
  actor?: Actor;
  /** Tell completion / reopening too (the caller changed the status itself). */
  status?: boolean;
  /** What is known of the task's new state, for the live messages. */
  hint?: ChangeHint;
  /** False when the live messages were refreshed already (a verb's own save). */
  refresh?: boolean;
}

/** `seen` with its parts bound, as the background paths are given it (start/worklink.ts). */
export type SeenEntry = (
  teamId: string,
  before: SeenTask | undefined,
  now: SeenTask,
  options?: SeenOptions,
) => void;

/** The parts `seen` tells; `live` and `store` may be left out by callers that need neither. */
export interface SeenParts {
  activity: Pick<TaskActivityHub, 'emit'>;
  live?: LiveRefresh;
  store?: Pick<Store, 'taskCreators'>;
  logger?: { warn(message: string): void };
}

export function seen(
  parts: SeenParts,
  teamId: string,
  before: SeenTask | undefined,
  now: SeenTask,
  options: SeenOptions = {},
): void {
  const { activity } = parts;
  const projectId = now.projectId ?? before?.projectId;
  if (!before) {
    const creator = options.actor;
    if (parts.store && (creator?.slackUserId || creator?.serviceUserId)) {
      parts.store.taskCreators
        .note(teamId, now.taskId, {
          slackUserId: creator.slackUserId,
          serviceUserId: creator.serviceUserId,
        })
        .catch((e: unknown) =>
          parts.logger?.warn(`The creator of task ${now.taskId}: ${errMessage(e)}`),
        );
    }
    activity.emit(teamId, {
      kind: 'created',
      taskId: now.taskId,
      projectId,
      actor: creator,
      assigneeIds: [...new Set(now.assigneeIds)],
    });
    return;
  }
  const added = [...new Set(now.assigneeIds)].filter((id) => !before.assigneeIds.includes(id));
  const done = options.status && before.done !== now.done ? now.done : undefined;
  tell(parts, teamId, { taskId: now.taskId, projectId, done, added, fields: [] }, options);
}

/** What a look saw change in a known task, in the activity hub's words (sync/seen-change.ts). */
export interface SeenTaskChange {
  taskId: string;
  projectId?: string;
  /** The new done flag, when it changed. */
  done?: boolean;
  /** Service user ids added. */
  added: string[];
  /** Everything else that changed. */
  fields: FieldChange[];
}

/** Where a change nobody is named for was made. */
export const IN_SERVICE = 'in the service';

/**
 * A change a read or a service event SAW in a known task (the index decides what is new, so
 * one reader tells it and nothing here dedupes): told like `seen`'s, every kind of change
 * included — completion or reopening, people added, the other fields as one `changed` — and
 * with no actor as made "in the service".
 */
export function seenChange(
  parts: SeenParts,
  teamId: string,
  change: SeenTaskChange,
  actor?: Actor,
): void {
  tell(parts, teamId, change, { actor, where: actor ? undefined : IN_SERVICE });
}

/** The one telling: live messages refreshed, then each kind of change emitted. */
function tell(
  parts: SeenParts,
  teamId: string,
  change: SeenTaskChange,
  options: SeenOptions & { where?: string },
): void {
  if (options.refresh !== false) parts.live?.taskChanged(teamId, change.taskId, options.hint);
  const base = {
    taskId: change.taskId,
    projectId: change.projectId,
    ...(options.actor ? { actor: options.actor } : {}),
    ...(options.where ? { where: options.where } : {}),
  };
  const { activity } = parts;
  if (change.done !== undefined) {
    activity.emit(teamId, { kind: change.done ? 'completed' : 'reopened', ...base });
  }
  if (change.added.length)
    activity.emit(teamId, { kind: 'assigned', ...base, added: change.added });
  if (change.fields.length)
    activity.emit(teamId, { kind: 'changed', ...base, fields: change.fields });
}
