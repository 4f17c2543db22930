/**
 * Due dates typed in quick syntax (`due:friday`, `due:next week`, `due:Dec 5`), resolved to a
 * calendar date in the user's Slack time zone: "today" for someone in Tokyo is not "today" in
 * UTC. The fixed forms are read here; anything else goes to chrono-node, a maintained
 * natural-language date parser, told the user's UTC offset at that moment.
 */
import { TZDate, tzOffset } from '@date-fns/tz';
// English only, and single functions: the packages' indexes (every locale, every function)
// cost a third of the app's start-up.
import * as chrono from 'chrono-node/en';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { isCalendarDate } from '../../workapi/contract.js';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

export type DateParse =
  | {
      ok: true;
      date: string;
      /** Read by the natural-language parser ("next week"), so worth saying back. */
      natural?: true;
      /** Before today in the user's zone: accepted, with a note. */
      past?: true;
    }
  | { ok: false; error: string };

/**
 * `yyyy-MM-dd`, `today`, `tomorrow`, a weekday (`fri`, `friday`, `next friday`: the next
 * such day after today), or what chrono-node reads ("next week", "in 3 days", "Dec 5",
 * "tomorrow 5pm" → that day). Returns `yyyy-MM-dd`, the form the service takes.
 */
export function parseDueDate(input: string, timeZone: string, now: Date = new Date()): DateParse {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const zone = safeZone(timeZone);
  const today = new TZDate(now.getTime(), zone);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    if (!isCalendarDate(text))
      return { ok: false, error: `${input} is not a date on the calendar.` };
    return { ok: true, date: text, ...(text < ymd(today) ? { past: true as const } : {}) };
  }
  if (text === 'today') return { ok: true, date: ymd(today) };
  if (text === 'tomorrow') return { ok: true, date: ymd(addDays(today, 1)) };
  const name = text.replace(/^next /, '');
  const day = WEEKDAYS.findIndex((w) => name.length >= 3 && w.startsWith(name));
  if (day >= 0) {
    const ahead = (day - today.getDay() + 7) % 7 || 7;
    return { ok: true, date: ymd(addDays(today, ahead)) };
  }
  const natural = naturalDate(text, zone, now);
  if (natural) {
    return {
      ok: true,
      date: natural,
      natural: true,
      ...(natural < ymd(today) ? { past: true as const } : {}),
    };
  }
  return {
    ok: false,
    error: `"${input}" is not a date I understand. Try yyyy-MM-dd, tomorrow, friday, next week, in 3 days or Dec 5.`,
  };
}

/**
 * True when all of `text` is one date phrase ("next week", "tomorrow 5pm"), so quick add
 * can tell where a `due:` date ends and the title goes on.
 */
export function isDatePhrase(text: string): boolean {
  const t = text.trim();
  if (!t) return false;
  const [first] = chrono.parse(t, undefined, { forwardDate: true });
  return first !== undefined && first.index === 0 && first.text.length === t.length;
}

/** chrono-node's reading of the whole of `text` as a calendar date in `zone`, or undefined. */
function naturalDate(text: string, zone: string, now: Date): string | undefined {
  if (!isDatePhrase(text)) return undefined;
  // A bare "Dec 5" means the next Dec 5, not the one that has passed (forwardDate).
  const [first] = chrono.parse(
    text,
    { instant: now, timezone: tzOffset(zone, now) },
    { forwardDate: true },
  );
  if (!first) return undefined;
  const pad = (n: number) => String(n).padStart(2, '0');
  const { start } = first;
  const date = `${start.get('year')}-${pad(start.get('month') ?? 0)}-${pad(start.get('day') ?? 0)}`;
  return isCalendarDate(date) ? date : undefined;
}

function ymd(d: Date): string {
  return format(d, 'yyyy-MM-dd');
}

/** An unknown zone (Slack sends IANA names, but be safe) falls back to UTC. */
function safeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}
