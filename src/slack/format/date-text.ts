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

/**
 * One formatter, made once: toLocaleDateString builds a new one on every call (about 40 µs,
 * against 1 µs for format), and every list row and card shows a date. Made at first use, not
 * at load: a time zone's formatter maps ~6 MB of ICU's data into memory, which an idle app
 * need not hold (bench:memory).
 */
let dueDate: Intl.DateTimeFormat | undefined;
const dueDateFormat = () =>
  (dueDate ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  }));

/** `2026-11-25…` → "Wed, Nov 25, 2026"; "no due date" when absent. */
export function formatDueDate(value: string | null | undefined): string {
  const day = calendarDate(value);
  if (!day) return 'no due date';
  return dueDateFormat().format(new Date(`${day}T00:00:00Z`));
}

/** Formatters of moments by time zone (a reader's zone; few distinct ones per workspace). */
const MOMENTS = new Map<string, Intl.DateTimeFormat>();
const MAX_MOMENT_ZONES = 500;

function momentFormat(timeZone: string): Intl.DateTimeFormat {
  let f = MOMENTS.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    if (MOMENTS.size >= MAX_MOMENT_ZONES) MOMENTS.clear();
    MOMENTS.set(timeZone, f);
  }
  return f;
}

/** A moment (connected at, sent at) in the reader's own time zone: "Nov 22, 2026, 3:04 PM". */
export function formatMoment(value: string | number | Date, timeZone: string): string {
  const date = new Date(value);
  try {
    return momentFormat(timeZone).format(date);
  } catch {
    // An unknown zone, or an invalid date.
    return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
  }
}

/** The note a due date before today gets, wherever it was entered (quick add, the form). */
export function pastDueNote(date: string): string {
  return `That due date (${formatDueDate(date)}) is in the past; the task has it anyway — change it with \`/work edit\` if that was a slip.`;
}
