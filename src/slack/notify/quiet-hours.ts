/**
 * Quiet hours: a daily window ('20:00-08:00', may cross midnight) in the person's own Slack
 * time zone during which their DMs are held, to go out when it ends. Pure: parsing, and
 * "is this moment inside, and when does it end" for a zone and an epoch ms.
 */
import { TZDate } from '@date-fns/tz';

export interface QuietWindow {
  /** Minutes after local midnight. */
  start: number;
  end: number;
}

const TIME = /^([01]?\d|2[0-3])(?::([0-5]\d))?$/;

function minutes(text: string): number | undefined {
  const m = TIME.exec(text.trim());
  return m ? Number(m[1]) * 60 + Number(m[2] ?? 0) : undefined;
}

/** '20:00-08:00' (also '20-8', '20:00 – 08:00'); undefined when not a window. */
export function parseQuietHours(text: string): QuietWindow | undefined {
  const parts = text.split(/\s*[-–—]\s*|\s+to\s+/i);
  if (parts.length !== 2) return undefined;
  const start = minutes(parts[0]!);
  const end = minutes(parts[1]!);
  if (start === undefined || end === undefined || start === end) return undefined;
  return { start, end };
}

const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** The stored and shown form: '20:00-08:00'. */
export function formatQuietHours(w: QuietWindow): string {
  return `${hhmm(w.start)}-${hhmm(w.end)}`;
}

/** `now` in `timeZone`; a zone this runtime does not know counts as UTC. */
function localTime(now: number, timeZone: string): TZDate {
  try {
    Intl.DateTimeFormat('en', { timeZone });
    return new TZDate(now, timeZone);
  } catch {
    // RangeError: not a zone (Slack sent something unexpected).
    return new TZDate(now, 'UTC');
  }
}

/**
 * When `now` is inside the window in `timeZone`: the epoch ms the window ends. Undefined
 * outside it.
 */
export function quietUntil(w: QuietWindow, timeZone: string, now: number): number | undefined {
  const local = localTime(now, timeZone);
  const m = local.getHours() * 60 + local.getMinutes();
  const overnight = w.start > w.end;
  const inside = overnight ? m >= w.start || m < w.end : m >= w.start && m < w.end;
  if (!inside) return undefined;
  // Overnight and already past the start: it ends tomorrow.
  const days = overnight && m >= w.start ? 1 : 0;
  const end = new TZDate(
    local.getFullYear(),
    local.getMonth(),
    local.getDate() + days,
    Math.floor(w.end / 60),
    w.end % 60,
    0,
    0,
    local.timeZone ?? 'UTC',
  );
  return end.getTime();
}
