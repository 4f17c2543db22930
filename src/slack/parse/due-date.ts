/**
 * Due dates typed in quick syntax (`due:friday`), resolved to a calendar date in the
 * user's Slack time zone: "today" for someone in Tokyo is not "today" in UTC.
 */
import { TZDate } from '@date-fns/tz';
import { addDays, format } from 'date-fns';
import { isCalendarDate } from '../../workapi/contract.js';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

export type DateParse = { ok: true; date: string } | { ok: false; error: string };

/**
 * `yyyy-MM-dd`, `today`, `tomorrow`, or a weekday (`fri`, `friday`, `next friday`: the next
 * such day after today). Returns `yyyy-MM-dd`, the form the service takes.
 */
export function parseDueDate(input: string, timeZone: string, now: Date = new Date()): DateParse {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    return isCalendarDate(text)
      ? { ok: true, date: text }
      : { ok: false, error: `${input} is not a date on the calendar.` };
  }
  const today = new TZDate(now.getTime(), safeZone(timeZone));
  if (text === 'today') return { ok: true, date: ymd(today) };
  if (text === 'tomorrow') return { ok: true, date: ymd(addDays(today, 1)) };
  const name = text.replace(/^next /, '');
  const day = WEEKDAYS.findIndex((w) => name.length >= 3 && w.startsWith(name));
  if (day >= 0) {
    const ahead = (day - today.getDay() + 7) % 7 || 7;
    return { ok: true, date: ymd(addDays(today, ahead)) };
  }
  return {
    ok: false,
    error: `"${input}" is not a date I understand. Use yyyy-MM-dd, today, tomorrow or a weekday.`,
  };
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
