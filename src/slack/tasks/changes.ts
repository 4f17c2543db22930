/**
 * The one owner of task changes. Whatever changes a task from Slack — a command, a button, a
 * form, a thread reply, a shortcut, a workflow step — goes through a verb here:
 *
 *   const by = await requireActing(ctx);          // who acts (context/acting.ts)
 *   if (!by) return;
 *   const done = await taskChanges(ctx).complete(by, taskId);
 *
 * Each verb does, in one place, what must follow a change: it calls the service with the
 * acting person's client (`by.work`, never `ctx.work`), updates what Worklink knows (the task
 * index learns every answer through that client, sync/task-sightings.ts; who made a task is
 * noted in task_creators), refreshes the live messages (src/slack/live) and emits the
 * activity (src/activity) that the DMs and the channel feeds hear. Callers only answer the
 * person.
 *
 * Changes Worklink did not make but SAW — a re-read of the index, the watcher finding a
 * task, the service's event, the edit form comparing before and after — go through `seen`
 * (src/activity/seen.ts), the single entry for what a look tells.
 */
import type { Actor } from '../../activity/hub.js';
import { type SeenOptions, type SeenTask, seen } from '../../activity/seen.js';
import type { CreateTaskBody, StatusEntry, Task, UpdateTaskBody } from '../../workapi/contract.js';
import { STATUS_TYPE } from '../../workapi/contract.js';
import type { Acting } from '../context/acting.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { authoredContent, type MessageAuthor } from './comment/authored.js';
import { announceAndDescribe, type Created, projectPhrase, tellCreated } from './create.js';
import { factsFromTask, factsFromUpdated, mergeFacts, type TaskFacts } from './facts.js';
import {
  defaultStatus,
  firstDoneStatus,
  loadProjectInfo,
  type ProjectInfo,
  sortStatuses,
} from './project-info.js';

export type { Created } from './create.js';

/** The outcome of `complete` / `reopen`. */
export interface Completion {
  /** True when the task was in that state already (nothing was sent). */
  already: boolean;
  facts: TaskFacts;
  project: ProjectInfo;
  status?: StatusEntry;
}

/** Thrown when the project has no done (or open) status; `message` is the sentence to show. */
export class NoDoneStatusError extends Error {
  override readonly name = 'NoDoneStatusError';
}

export interface Commented {
  /** The task as read before posting (its name and project); undefined with `read: false`. */
  task?: Task;
  commentId?: string;
  /** What was posted, attribution line included. */
  content: string;
}

export interface Assigned {
  task: Task;
  /** Service user ids newly assigned ([] when everyone named was already). */
  added: string[];
  facts?: TaskFacts;
}

export interface Saved {
  /** Undefined when the service said it saved, but not what (and a read failed too). */
  facts?: TaskFacts;
}

export interface TaskChanges {
  /** Create task; the assignees' DMs are queued; the sentence says both. */
  create(by: Acting, body: CreateTaskBody, options?: { projectName?: string }): Promise<Created>;
  /** A create the service did not confirm, found later (tasks/form/follow-up.ts). */
  createdLater(by: Acting, task: Task, projectId: string): Promise<Required<Created>>;
  /**
   * After the caller has shown the new task (its card): the creator is noted and the
   * `created` activity emitted (a feed in that channel has placed it already). `source`: the
   * message it was made from, whose thread is answered. Returns at once, never throws.
   */
  shown(
    by: Acting,
    facts: Pick<TaskFacts, 'taskId' | 'projectId' | 'assigneeIds'>,
    source?: { channel: string; ts: string },
  ): void;
  /** Update task with `body` (the edit form); tells who was added, and completion or reopening
   *  when `statusChanged`. */
  save(
    by: Acting,
    taskId: string,
    body: UpdateTaskBody,
    options?: { statusChanged?: boolean },
  ): Promise<Saved>;
  /** The project's first done status; a done task is left alone. Throws NoDoneStatusError. */
  complete(by: Acting, taskId: string): Promise<Completion>;
  /** The project's default status when open, else its first open one. */
  reopen(by: Acting, taskId: string): Promise<Completion>;
  /**
   * Posts `text` as a comment; written on behalf (`by.onBehalf`) it ends with the attribution
   * line (comment/authored.ts). `author`: the message it was taken from; `fromThread`: the
   * feed thread it came from (never echoed back there); `read: false` posts without reading
   * the task first (a thread reply: its card knows the task; one call fewer when the service
   * struggles).
   */
  comment(
    by: Acting,
    taskId: string,
    text: string,
    options?: {
      author?: MessageAuthor;
      fromThread?: { channel: string; ts: string };
      read?: boolean;
    },
  ): Promise<Commented>;
  /** Adds assignees (update task replaces the set, so the current ones are kept). */
  assign(by: Acting, taskId: string, serviceUserIds: readonly string[]): Promise<Assigned>;
  /** A change seen rather than made (src/activity/seen.ts); no `before`: a task new to Worklink. */
  seen(teamId: string, before: SeenTask | undefined, now: SeenTask, options?: SeenOptions): void;
}

/** Who acted, for task activity. */
export function actorOf(by: Acting): Actor {
  return {
    ...(by.slackUserId ? { slackUserId: by.slackUserId } : {}),
    ...(by.serviceUserId ? { serviceUserId: by.serviceUserId } : {}),
  };
}

/** The verbs, for a request (`ctx`: its Slack client, store, the app's parts). */
export function taskChanges(ctx: WorkContext): TaskChanges {
  const { deps } = ctx;
  /** The live messages are refreshed with what is known of the task now. */
  const refresh = (
    teamId: string,
    facts: Pick<TaskFacts, 'taskId'> & Partial<Pick<TaskFacts, 'number' | 'statusId'>>,
  ) =>
    deps.live.taskChanged(teamId, facts.taskId, { number: facts.number, statusId: facts.statusId });

  const setStatus = async (
    by: Acting,
    taskId: string,
    want: 'done' | 'open',
  ): Promise<Completion> => {
    const read = factsFromTask(await by.work.getTask(taskId));
    const projectId = read.projectId ?? '';
    const scope = { teamId: by.teamId, work: by.work, store: ctx.store, logger: ctx.logger };
    const project = await loadProjectInfo(scope, projectId, { withGroups: !read.groupName });
    if (read.done === (want === 'done')) return { already: true, facts: read, project };
    const isOpen = (s: StatusEntry | undefined) => s !== undefined && s.Type !== STATUS_TYPE.done;
    const fallback = defaultStatus(project.statuses);
    const status =
      want === 'done'
        ? firstDoneStatus(project.statuses)
        : isOpen(fallback)
          ? fallback
          : sortStatuses(project.statuses).find(isOpen);
    if (!status) {
      throw new NoDoneStatusError(
        want === 'done'
          ? `Project *${esc(project.name)}* has no done status, so *${esc(read.name)}* cannot be marked complete. Nothing was changed.`
          : `Project *${esc(project.name)}* has no open status, so *${esc(read.name)}* cannot be reopened. Nothing was changed.`,
      );
    }
    const updated = await by.work.updateTask(taskId, { projectId, statusId: status._id });
    // Any 2xx set the status, whether or not the answer describes the task.
    const facts = updated
      ? mergeFacts(read, factsFromUpdated(updated))
      : { ...read, done: want === 'done', statusId: status._id };
    refresh(by.teamId, facts);
    deps.activity.emit(by.teamId, {
      kind: want === 'done' ? 'completed' : 'reopened',
      taskId,
      projectId,
      actor: actorOf(by),
    });
    return { already: false, facts, project, status };
  };

  return {
    async create(by, body, options = {}) {
      const task = await by.work.createTask(body);
      if (!task) {
        const where = await projectPhrase(ctx, body.projectId, options.projectName);
        // Any 2xx created it; without an id there is no card to show and no task to announce
        // now. The watcher finds it in the project's list (a new id) and announces it then.
        const later =
          body.taskUsers?.length && deps.watcher.enabled
            ? ' Its assignees are told when Worklink next looks at the project.'
            : '';
        return { sentence: `Task created${where}; the service did not return its id.${later}` };
      }
      return announceAndDescribe(ctx, by, task, body.projectId, options.projectName);
    },

    createdLater: (by, task, projectId) => announceAndDescribe(ctx, by, task, projectId),

    shown(by, facts, source) {
      tellCreated(ctx, by, facts, source);
    },

    async save(by, taskId, body, options = {}) {
      // What the task was (the form read it when it opened), to tell who was added and
      // whether it was completed or reopened.
      const before = await ctx.store.taskIndex.get(by.teamId, taskId);
      const answer = await by.work.updateTask(taskId, body);
      // Any 2xx saved it; an answer that does not describe the task is made up by a read.
      const facts = answer
        ? factsFromUpdated(answer)
        : await by.work.getTask(taskId).then(factsFromTask, () => undefined);
      refresh(by.teamId, facts ?? { taskId });
      if (before && facts) {
        seen({ activity: deps.activity }, by.teamId, before, facts, {
          actor: actorOf(by),
          status: options.statusChanged === true,
          refresh: false,
        });
      }
      return { facts };
    },

    complete: (by, taskId) => setStatus(by, taskId, 'done'),
    reopen: (by, taskId) => setStatus(by, taskId, 'open'),

    async comment(by, taskId, text, options = {}) {
      const [task, content] = await Promise.all([
        options.read === false ? undefined : by.work.getTask(taskId),
        authoredContent(ctx, by, text, options.author),
      ]);
      const posted = await by.work.postComment(taskId, { content });
      refresh(by.teamId, { taskId });
      deps.activity.emit(by.teamId, {
        kind: 'commented',
        taskId,
        projectId: task?.projectId,
        actor: actorOf(by),
        text,
        commentId: posted?.commentId,
        ...(options.fromThread ? { fromThread: options.fromThread } : {}),
      });
      return { task, commentId: posted?.commentId, content };
    },

    async assign(by, taskId, serviceUserIds) {
      const task = await by.work.getTask(taskId);
      const before = (task.taskUsers ?? []).map((u) => u.taskUserId);
      const added = serviceUserIds.filter((id) => !before.includes(id));
      if (added.length === 0) return { task, added };
      const updated = await by.work.updateTask(taskId, {
        projectId: task.projectId ?? '',
        taskUsers: [...before, ...added],
      });
      const facts = updated ? factsFromUpdated(updated) : undefined;
      refresh(by.teamId, facts ?? { taskId });
      deps.activity.emit(by.teamId, {
        kind: 'assigned',
        taskId,
        projectId: task.projectId,
        actor: actorOf(by),
        added,
      });
      return { task, added, facts };
    },

    seen: (teamId, before, now, options) =>
      seen(
        { activity: deps.activity, live: deps.live, store: ctx.store, logger: ctx.logger },
        teamId,
        before,
        now,
        options,
      ),
  };
}
