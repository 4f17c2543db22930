/**
 * What a change seen by a read (src/store/tables/task-index/, `see`) tells, in the words the
 * activity hub uses: completion or reopening, people added, and every other field that
 * changed (name, due date, priority, status name, people removed) — batched, so several
 * changes seen together are told together. Pure.
 */
import type { ChangedField, FieldChange } from '../activity/hub.js';
import type { SeenTaskChange } from '../activity/seen.js';
import type { SeenChange } from '../store/index.js';

export type { ChangedField, FieldChange, SeenTaskChange };

export function describeSeen({ before, after }: SeenChange): SeenTaskChange {
  const fields: FieldChange[] = [];
  const field = (f: ChangedField, from: string | number | undefined, to: typeof from) => {
    if (from !== to)
      fields.push({
        field: f,
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
      });
  };
  field('name', before.name, after.name);
  // Known from lists only, the rest was unknown before: not a change (seenDiffers).
  const whole = before.readAt !== undefined;
  if (whole) {
    field('dueDate', before.dueDate, after.dueDate);
    field('priority', before.priority, after.priority);
  }
  // A move into or out of done is told as completion or reopening, not as a status name.
  const known = before.statusName !== undefined && after.statusName !== undefined;
  if (whole && known && before.done === after.done) {
    field('status', before.statusName, after.statusName);
  }
  const was = whole ? before.assigneeIds : after.assigneeIds;
  const removed = was.filter((id) => !after.assigneeIds.includes(id));
  if (removed.length) fields.push({ field: 'unassigned', people: removed });
  return {
    taskId: after.taskId,
    projectId: after.projectId,
    ...(before.done !== after.done ? { done: after.done } : {}),
    added: after.assigneeIds.filter((id) => !was.includes(id)),
    fields,
  };
}
