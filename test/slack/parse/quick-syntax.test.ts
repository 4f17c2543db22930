import { describe, expect, it } from 'vitest';
import { calendarDate, formatDueDate } from '../../../src/slack/format/date-text.js';
import { parseDueDate } from '../../../src/slack/parse/due-date.js';
import { parseQuickAdd } from '../../../src/slack/parse/quick-add.js';

// Sunday 2026-11-22 at 23:30 UTC: already Monday in Tokyo, still Sunday in New York.
const NOW = new Date('2026-11-22T23:30:00Z');

describe('parseDueDate', () => {
  it('resolves today and tomorrow in the user time zone', () => {
    expect(parseDueDate('today', 'America/New_York', NOW)).toEqual({
      ok: true,
      date: '2026-11-22',
    });
    expect(parseDueDate('today', 'Asia/Tokyo', NOW)).toEqual({ ok: true, date: '2026-11-23' });
    expect(parseDueDate('Tomorrow', 'Asia/Tokyo', NOW)).toEqual({ ok: true, date: '2026-11-24' });
  });

  it('resolves weekday names to the next such day, never today', () => {
    expect(parseDueDate('friday', 'America/New_York', NOW)).toEqual({
      ok: true,
      date: '2026-11-27',
    });
    expect(parseDueDate('fri', 'UTC', NOW)).toEqual({ ok: true, date: '2026-11-27' });
    expect(parseDueDate('sunday', 'America/New_York', NOW)).toEqual({
      ok: true,
      date: '2026-11-29',
    });
    expect(parseDueDate('next monday', 'Asia/Tokyo', NOW)).toEqual({
      ok: true,
      date: '2026-11-30',
    });
  });

  it('takes calendar dates as they are and refuses impossible ones', () => {
    expect(parseDueDate('2026-12-01', 'UTC', NOW)).toEqual({ ok: true, date: '2026-12-01' });
    expect(parseDueDate('2026-02-30', 'UTC', NOW)).toMatchObject({ ok: false });
    expect(parseDueDate('soonish', 'UTC', NOW)).toMatchObject({ ok: false });
    expect(parseDueDate('today', 'Not/AZone', NOW)).toEqual({ ok: true, date: '2026-11-22' });
  });
});

describe('calendar dates from the service', () => {
  it('shows the UTC calendar date, whatever the zone', () => {
    expect(calendarDate('2026-11-25T00:00:00.000Z')).toBe('2026-11-25');
    expect(formatDueDate('2026-11-25T00:00:00.000Z')).toBe('Wed, Nov 25, 2026');
    expect(formatDueDate(null)).toBe('no due date');
  });
});

describe('parseQuickAdd', () => {
  it('splits title, mentions, due date and priority wherever they stand', () => {
    const r = parseQuickAdd('Fix <@U123|bob> the login due:friday page @carol@example.com p:high');
    expect(r).toEqual({
      ok: true,
      value: {
        title: 'Fix the login page',
        assignees: [{ slackUserId: 'U123' }, { handle: 'carol@example.com' }],
        due: 'friday',
        priority: 2,
      },
    });
    expect(parseQuickAdd('x due:"next friday" p:no-priority')).toMatchObject({
      ok: true,
      value: { due: 'next friday', priority: 0 },
    });
  });

  it('decodes the entities Slack escapes in typed text, but not into mentions', () => {
    expect(parseQuickAdd('Fix &amp; ship &lt;@U999&gt; &lt;b&gt;')).toMatchObject({
      ok: true,
      value: { title: 'Fix & ship <@U999> <b>', assignees: [] },
    });
  });

  it('explains bad input', () => {
    expect(parseQuickAdd('')).toMatchObject({ ok: false });
    expect(parseQuickAdd('@bob due:today')).toMatchObject({ ok: false });
    expect(parseQuickAdd('Task p:7')).toMatchObject({
      ok: false,
      error: expect.stringContaining('p:7'),
    });
    expect(parseQuickAdd('Task due:')).toMatchObject({ ok: false });
  });
});
