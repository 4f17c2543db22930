/**
 * When a reminder fires, from what a person types after the task (`tomorrow 9am`, `in 1 hour`,
 * `tomorrow morning`, `next week`, `Dec 5 3pm`, `2026-12-01`), read in their Slack time zone.
 * A day without a time is 09:00 that day. chrono-node reads what the fixed forms do not.
 */
import { TZDate, tzOffset } from '@date-fns/tz';
import * as chrono from 'chrono-node/en';

export type RemindAt = { ok: true; at: number } | { ok: false; error: string };

const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
export const MORNING_HOUR = 9;

/** 09:00 (or `hour`) on the day `days` after `now`'s day, in `zone`. */
export function localHour(now: number, zone: string, days: number, hour = MORNING_HOUR): number {
  const today = new TZDate(now, zone);
  return new TZDate(
    today.getFullYear(),
    today.getMonth(),
    today.getDate() + days,
    hour,
    0,
    0,
    zone,
  ).getTime();
}

/** The next Monday at 09:00 (a week on when today is Monday). */
export function nextWeek(now: number, zone: string): number {
  const day = new TZDate(now, zone).getDay();
  return localHour(now, zone, (8 - day) % 7 || 7);
}

export function parseRemindAt(input: string, timeZone: string, now: number): RemindAt {
  const text = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const zone = safeZone(timeZone);
  const bad = {
    ok: false as const,
    error: `"${input}" is not a time I understand. Try \`in 1 hour\`, \`tomorrow 9am\`, \`tomorrow morning\`, \`next week\` or \`Dec 5 3pm\`.`,
  };
  if (!text) return bad;
  const rel = /^in (\d{1,4}) (minute|hour|day)s?$/.exec(text);
  if (rel) return { ok: true, at: now + Number(rel[1]) * UNIT_MS[rel[2]!]! };
  if (text === 'tomorrow' || text === 'tomorrow morning') {
    return { ok: true, at: localHour(now, zone, 1) };
  }
  if (text === 'next week') return { ok: true, at: nextWeek(now, zone) };
  const [first] = chrono.parse(
    text,
    { instant: new Date(now), timezone: tzOffset(zone, new Date(now)) },
    { forwardDate: true },
  );
  if (!first || first.index !== 0 || first.text.length !== text.length) return bad;
  const { start } = first;
  const at = start.isCertain('hour')
    ? start.date().getTime()
    : new TZDate(
        start.get('year') ?? 0,
        (start.get('month') ?? 1) - 1,
        start.get('day') ?? 1,
        MORNING_HOUR,
        0,
        0,
        zone,
      ).getTime();
  if (at <= now) {
    return { ok: false, error: `"${input}" has passed already; name a time still to come.` };
  }
  return { ok: true, at };
}

/** Splits `#12 tomorrow 9am` into the task and the longest time at its end that reads. */
export function splitTaskAndTime(
  text: string,
  timeZone: string,
  now: number,
): { task: string; at: number } | { error: string } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  let error: string | undefined;
  for (let k = Math.min(5, words.length - 1); k >= 1; k--) {
    const when = parseRemindAt(words.slice(-k).join(' '), timeZone, now);
    if (when.ok) return { task: words.slice(0, -k).join(' '), at: when.at };
    if (k === 1) error = when.error;
  }
  return {
    error:
      words.length < 2
        ? 'Say which task and when, like `/work remind #12 tomorrow 9am`.'
        : (error ?? 'Say when, like `/work remind #12 tomorrow 9am`.'),
  };
}

function safeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}
