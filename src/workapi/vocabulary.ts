/**
 * The work-management interface's shared vocabulary: status and activity types, priorities,
 * and the formats of dates, path ids and file sizes that requests use.
 */
import { z } from 'zod';

export { PRIORITY_NAMES, type PriorityName, priorityNumber } from './priority.js';

/** Task status list entry `Type`: docs/design.md, Status list. */
export const STATUS_TYPE = { todo: 1, inProgress: 2, done: 3 } as const;

/** Task comment `Type` (activity entries): docs/design.md, Update task. */
export const ACTIVITY_TYPE = {
  comment: 1,
  status: 2,
  priority: 3,
  dueDate: 4,
  group: 5,
  assigneeAdded: 6,
  assigneeRemoved: 7,
  estimate: 8,
} as const;

/** True when `yyyy-MM-dd` names a day that exists (rejects 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A request date: `yyyy-MM-dd` that exists on the calendar. */
export const requestDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form yyyy-MM-dd')
  .refine(isCalendarDate, 'is not a date on the calendar');

/** Path ids: strings of at least 10 characters (docs/work-management-api.md, Limits). */
export const pathId = z.string().min(10, 'must be an id of at least 10 characters');

/** A file's size in the spec's form `00.00 KB|MB|GB`. */
export const fileSize = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,2})? (KB|MB|GB)$/, 'must look like 12.34 KB, MB or GB');

/** A number of bytes in the spec's form: 1536 → "1.50 KB", 5242880 → "5.00 MB". */
export function formatFileSize(bytes: number): string {
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)} ${units[unit]}`;
}
