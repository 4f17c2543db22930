/**
 * Due dates are calendar dates (docs/design.md): the service answers with a UTC date-time, and
 * the day shown is its UTC calendar date, never shifted by the reader's time zone.
 */

/** `2026-11-25T00:00:00.000Z` or `2026-11-25` → `2026-11-25`; undefined when absent or bad. */
export function calendarDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  if (m) return m[1];
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString().slice(0, 10);
}

/** `2026-11-25…` → "Wed, Nov 25, 2026"; "no due date" when absent. */
export function formatDueDate(value: string | null | undefined): string {
  const day = calendarDate(value);
  if (!day) return 'no due date';
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

/** A moment (connected at, sent at) in the reader's own time zone: "Nov 22, 2026, 3:04 PM". */
export function formatMoment(value: string | number | Date, timeZone: string): string {
  const date = new Date(value);
  try {
    return date.toLocaleString('en-US', {
      timeZone,
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    });
  } catch {
    return date.toISOString();
  }
}
