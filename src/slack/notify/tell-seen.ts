/**
 * Tells a change Worklink SAW rather than made (a read or an event showed a known task
 * changed since Worklink last knew it: src/sync/seen-change.ts) as if it had been made from
 * Slack: the live messages about the task are updated in place, and the activity hub hears
 * completion or reopening, people added, and the other fields as one `changed` (feeds reply in
 * the card's thread; the DM listener sends completion to the creator and assignment to new
 * assignees through the outbox). The index decides what is new (one reader tells a change),
 * so nothing here dedupes. With no actor the change is told as made "in the service".
 */
import type { SeenTaskChange } from '../../sync/seen-change.js';
import type { Actor, TaskActivityHub } from './activity.js';

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
