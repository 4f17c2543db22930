/**
 * "My tasks" order: overdue, due today, due this week (through Sunday), later, no date.
 * Due dates are calendar dates; "today" is the viewer's date in their Slack time zone
 * (DESIGN.md), so a task due on the 24th is overdue in Tokyo hours before it is in New York.
 */
import { TZDate } from '@date-fns/tz';
import type { IndexedTask } from '../../../store/index.js';

export type DueGroup = 'overdue' | 'today' | 'week' | 'later' | 'none';

export const GROUP_ORDER: readonly DueGroup[] = ['overdue', 'today', 'week', 'later', 'none'];

export const GROUP_TITLE: Record<DueGroup, string> = {
  overdue: ':warning: Overdue',
  today: 'Due today',
  week: 'Due this week',
  later: 'Due later',
  none: 'No due date',
};

/** yyyy-MM-dd of `now` in `timeZone` (UTC when the zone is unknown). */
export function dateIn(timeZone: string, now: number): string {
  try {
    const d = new TZDate(now, timeZone);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  } catch {
    // A zone name this Node's ICU does not know (Slack's list can be newer) throws RangeError;
    // the day in UTC is at most one day off, which is better than failing the whole list.
    return new Date(now).toISOString().slice(0, 10);
  }
}

/** The calendar day `days` after `day` (yyyy-MM-dd). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function dueGroup(dueDate: string | undefined, today: string): DueGroup {
  if (!dueDate) return 'none';
  if (dueDate < today) return 'overdue';
  if (dueDate === today) return 'today';
  // Days left until Sunday (getUTCDay: Sunday 0).
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  if (dueDate <= addDays(today, (7 - weekday) % 7)) return 'week';
  return 'later';
}

/** Grouped in GROUP_ORDER; by due date, then project and number, within a group. */
export function orderMine<T extends Pick<IndexedTask, 'dueDate' | 'projectId' | 'number' | 'name'>>(
  tasks: readonly T[],
  today: string,
): (T & { group: DueGroup })[] {
  return tasks
    .map((t) => ({ ...t, group: dueGroup(t.dueDate, today) }))
    .sort(
      (a, b) =>
        GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group) ||
        (a.dueDate ?? '').localeCompare(b.dueDate ?? '') ||
        a.projectId.localeCompare(b.projectId) ||
        (a.number ?? 0) - (b.number ?? 0) ||
        a.name.localeCompare(b.name),
    );
}
