/**
 * The service's `task.updated` and `task.commented` events (docs/events.md; the embedded
 * service sends them, the hosted one does not), taken in by the events receiver
 * (events-receiver.ts) after its signature checks:
 *
 * - task.updated: the event's task is a sighting for the task index (`see`), which says what
 *   changed since Worklink last knew it — nothing when the change was Worklink's own (its
 *   write's answer updated the index first) or was already seen by a read. What is new is told
 *   (seen-comments.ts) with the event's actor. A group change, which the index does not keep, is
 *   told from the event's `changes`.
 * - task.commented: told once per comment (a mark `comment:<team>:<comment id>`, which
 *   Worklink's own comments set when posted, src/sync/task-sightings.ts), with its author.
 *
 * The event id is marked first (a retry or replay does nothing). Each is handled after a short
 * settle, so that the answer to Worklink's own write reaches the index before its event is
 * compared with it.
 */
import { z } from 'zod';
import type { Actor, TaskActivityHub } from '../../activity/hub.js';
import { errMessage } from '../../error-message.js';
import type { Store } from '../../store/index.js';
import type { SeenTaskChange } from '../../sync/seen-change.js';
import { describeSeen } from '../../sync/seen-change.js';
import { commentMark } from '../../sync/seen-comments.js';
import { sightingFromTask } from '../../sync/task-sightings.js';
import { responses } from '../../workapi/contract.js';

const Person = z.looseObject({ id: z.string().max(200), name: z.string().max(500).optional() });
const Change = z.looseObject({ from: z.unknown().optional(), to: z.unknown().optional() });

const TaskUpdated = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.literal('task.updated'),
  workspaceId: z.string().min(1).max(200),
  actorId: z.string().max(200).optional(),
  task: responses.Task,
  changes: z
    .looseObject({ statusName: Change.optional(), group: Change.optional() })
    .optional()
    .catch(undefined),
  actor: Person.optional().catch(undefined),
});

const TaskCommented = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.literal('task.commented'),
  workspaceId: z.string().min(1).max(200),
  actorId: z.string().max(200).optional(),
  task: responses.Task,
  comment: z.looseObject({
    commentId: z.string().min(1).max(200),
    content: z.string().max(100_000),
  }),
  actor: Person.optional().catch(undefined),
});

export const CHANGE_EVENTS = ['task.updated', 'task.commented'] as const;

export interface ChangeEventsOptions {
  store: Store;
  /** How long to let Worklink's own write settle first. */
  settleMs(): number;
  activity?: Pick<TaskActivityHub, 'emit'>;
  /** Tells a change seen (seen-comments.ts; wired with the live messages). */
  seenChange?(teamId: string, change: SeenTaskChange, actor?: Actor): void;
  logger?: { warn(message: string): void };
}

/** The comment mark both paths set: the first to set it tells the comment. */

/**
 * Checks and takes in a change event: 400's text when it is not well formed, else undefined
 * (and the work goes on in the background: the service need not wait for Slack).
 */
export async function takeInChange(
  options: ChangeEventsOptions,
  json: unknown,
): Promise<{ error: string } | { duplicate: boolean }> {
  const updated = TaskUpdated.safeParse(json);
  const commented = updated.success ? undefined : TaskCommented.safeParse(json);
  const event = updated.success ? updated.data : commented?.success ? commented.data : undefined;
  if (!event) return { error: 'not a well-formed task.updated or task.commented event' };
  if (!(await options.store.seenEvents.markSeen(event.id))) return { duplicate: true };
  const settle = Math.min(options.settleMs(), 2_000);
  setTimeout(() => {
    void tell(options, event).catch((e: unknown) =>
      options.logger?.warn(`Event ${event.id}: not told: ${errMessage(e)}`),
    );
  }, settle).unref();
  return { duplicate: false };
}

type ChangeEvent = z.infer<typeof TaskUpdated> | z.infer<typeof TaskCommented>;

async function tell(options: ChangeEventsOptions, event: ChangeEvent): Promise<void> {
  const { store } = options;
  const teams = (await store.connections.list()).filter((c) => c.workspaceId === event.workspaceId);
  const actor: Actor | undefined = event.actorId
    ? { serviceUserId: event.actorId, ...(event.actor?.name ? { name: event.actor.name } : {}) }
    : undefined;
  for (const { teamId } of teams) {
    if (event.type === 'task.commented') {
      if (!(await store.seenEvents.markSeen(commentMark(teamId, event.comment.commentId)))) {
        continue;
      }
      options.activity?.emit(teamId, {
        kind: 'commented',
        taskId: event.task.taskId,
        projectId: event.task.projectId,
        actor,
        text: event.comment.content,
        commentId: event.comment.commentId,
      });
      continue;
    }
    const statusName = stringOf(event.changes?.statusName?.to);
    const seen = await store.taskIndex.see(teamId, {
      ...sightingFromTask(event.task),
      ...(statusName ? { statusName } : {}),
    });
    const change: SeenTaskChange = seen
      ? describeSeen(seen)
      : {
          taskId: event.task.taskId,
          projectId: event.task.projectId ?? '',
          added: [],
          fields: [],
        };
    const group = event.changes?.group;
    if (group) {
      change.fields.push({
        field: 'group',
        ...(stringOf(group.from) ? { from: stringOf(group.from) } : {}),
        ...(stringOf(group.to) ? { to: stringOf(group.to) } : {}),
      });
    }
    if (change.done !== undefined || change.added.length || change.fields.length) {
      options.seenChange?.(teamId, change, actor);
    }
  }
}

const stringOf = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
