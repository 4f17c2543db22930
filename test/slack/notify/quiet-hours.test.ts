/** Quiet hours' window: parsing, and when a held DM is released, in the person's own zone. */
import { describe, expect, it } from 'vitest';
import {
  formatQuietHours,
  parseQuietHours,
  quietUntil,
} from '../../../src/slack/notify/quiet-hours.js';

const at = (iso: string) => Date.parse(iso);
const night = parseQuietHours('20:00-08:00')!;

describe('quiet hours', () => {
  it('reads a window in the ways people type it, and refuses what is not one', () => {
    expect(night).toEqual({ start: 1200, end: 480 });
    for (const typed of ['20-8', '20:00 – 08:00', '20:00 to 8:00']) {
      expect(formatQuietHours(parseQuietHours(typed)!)).toBe('20:00-08:00');
    }
    for (const bad of [
      '',
      '20:00',
      '25:00-08:00',
      '20:61-08:00',
      '08:00-08:00',
      'night',
      '1-2-3',
    ]) {
      expect(parseQuietHours(bad)).toBeUndefined();
    }
  });

  it('holds until the window ends, across midnight, in the zone given', () => {
    // 21:30 in Berlin (UTC+1): held until 08:00 Berlin the next morning.
    expect(quietUntil(night, 'Europe/Berlin', at('2026-11-23T20:30:00Z'))).toBe(
      at('2026-11-24T07:00:00Z'),
    );
    // 06:00 in Tokyo: the window that began last night ends at 08:00 today.
    expect(quietUntil(night, 'Asia/Tokyo', at('2026-11-23T21:00:00Z'))).toBe(
      at('2026-11-23T23:00:00Z'),
    );
    // Outside the window (noon; exactly at its end): not held.
    expect(quietUntil(night, 'UTC', at('2026-11-23T12:00:00Z'))).toBeUndefined();
    expect(quietUntil(night, 'UTC', at('2026-11-23T08:00:00Z'))).toBeUndefined();
    // A daytime window; an unknown zone counts as UTC.
    const lunch = parseQuietHours('12:00-13:30')!;
    expect(quietUntil(lunch, 'Not/AZone', at('2026-11-23T12:10:00Z'))).toBe(
      at('2026-11-23T13:30:00Z'),
    );
  });

  it('ends at the local time on a day the clocks change', () => {
    // New York leaves summer time on 2026-11-01 at 02:00: 08:00 that morning is 13:00 UTC.
    expect(quietUntil(night, 'America/New_York', at('2026-11-01T02:00:00Z'))).toBe(
      at('2026-11-01T13:00:00Z'),
    );
  });
});
