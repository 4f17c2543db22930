/**
 * Tells a change Worklink SAW rather than made (a read or an event showed a known task
 * changed since Worklink last knew it: src/sync/seen-change.ts) as if it had been made from
 * Slack: the live messages about the task are updated in place, and the activity hub hears
 * completion or reopening, people added, and the other fields as one `changed` (feeds reply in
 * the card's thread; the DM listener sends completion to the creator and assignment to new
 * assignees through the outbox). The index decides what is new (one reader tells a change),
 * so nothing here dedupes. With no actor the change is told as made "in the service".
 */
import type { Actor, TaskActivityHub } from '../activity/hub.js';
import type { Store } from '../store/index.js';
import type { SeenTaskChange } from './seen-change.js';
import type { SeenComment } from './task-sightings.js';

/** The mark a comment is told under once, whoever sees it first (events, answers, Worklink). */
export const commentMark = (teamId: string, commentId: string) => `comment:${teamId}:${commentId}`;

/** Where a change nobody is named for was made. */
export const IN_SERVICE = 'in the service';

export interface TellSeenParts {
  activity: Pick<TaskActivityHub, 'emit'>;
  live?: { taskChanged(teamId: string, taskId: string): void };
}

export function tellSeen(
  parts: TellSeenParts,
  teamId: string,
  change: SeenTaskChange,
  actor?: Actor,
): void {
  parts.live?.taskChanged(teamId, change.taskId);
  const base = {
    taskId: change.taskId,
    projectId: change.projectId,
    ...(actor ? { actor } : { where: IN_SERVICE }),
  };
  if (change.done !== undefined) {
    parts.activity.emit(teamId, { kind: change.done ? 'completed' : 'reopened', ...base });
  }
  if (change.added.length) {
    parts.activity.emit(teamId, { kind: 'assigned', ...base, added: change.added });
  }
  if (change.fields.length) {
    parts.activity.emit(teamId, { kind: 'changed', ...base, fields: change.fields });
  }
}

/** How old a comment may be and still be told when first seen in an answer's Comments. */
export const FRESH_COMMENT_MS = 24 * 3_600_000;

/**
 * Comments an answer carried (update task answers' `Comments`: the only way the hosted
 * service shows comments made in its web app). Each is told once (the comment mark the events
 * and Worklink's own comments share); the first answer seen for a task only marks its
 * comments, and a comment older than a day is never told (marks are kept a week).
 */
export async function tellSeenComments(
  parts: TellSeenParts & { store: Pick<Store, 'seenEvents' | 'taskIndex'> },
  teamId: string,
  taskId: string,
  comments: readonly SeenComment[],
  now = Date.now(),
): Promise<void> {
  const first = await parts.store.seenEvents.markSeen(`comments:${teamId}:${taskId}`);
  const projectId = (await parts.store.taskIndex.get(teamId, taskId))?.projectId;
  for (const c of comments) {
    if (!(await parts.store.seenEvents.markSeen(commentMark(teamId, c.commentId)))) continue;
    const at = c.at ? Date.parse(c.at) : Number.NaN;
    if (first || !(now - at < FRESH_COMMENT_MS)) continue;
    parts.activity.emit(teamId, {
      kind: 'commented',
      taskId,
      projectId,
      ...(c.by ? { actor: { serviceUserId: c.by } } : {}),
      text: c.text,
      commentId: c.commentId,
    });
  }
}
