/**
 * Comments Worklink SAW rather than made: those an update answer carried (the hosted service's
 * only sign of comments made in its web app), told once under the comment mark the service's
 * events and Worklink's own comments share. Task changes seen are told by `seenChange`
 * (src/activity/seen.ts).
 */
import type { TaskActivityHub } from '../activity/hub.js';
import type { Store } from '../store/index.js';
import type { SeenComment } from './task-sightings.js';

/** The mark a comment is told under once, whoever sees it first (events, answers, Worklink). */
export const commentMark = (teamId: string, commentId: string) => `comment:${teamId}:${commentId}`;

/** How old a comment may be and still be told when first seen in an answer's Comments. */
export const FRESH_COMMENT_MS = 24 * 3_600_000;

/**
 * Comments an answer carried (update task answers' `Comments`: the only way the hosted
 * service shows comments made in its web app). Each is told once (the comment mark the events
 * and Worklink's own comments share); the first answer seen for a task only marks its
 * comments, and a comment older than a day is never told (marks are kept a week).
 */
export async function tellSeenComments(
  parts: {
    activity: Pick<TaskActivityHub, 'emit'>;
    store: Pick<Store, 'seenEvents' | 'taskIndex'>;
  },
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
