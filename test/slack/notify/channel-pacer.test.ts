/**
 * The per-channel pacer: one send a second into a DM channel, a 429 pausing only its
 * channel, and waiting rows given the channel's next slots in order.
 */
import { describe, expect, it } from 'vitest';
import { ChannelPacer } from '../../../src/slack/notify/channel-pacer.js';
import { PaceRules } from '../../../src/slack/notify/pacer.js';
import type { TeamPaceState } from '../../../src/store/index.js';

describe('ChannelPacer', () => {
  it('spaces sends into one channel; other channels and teams are free', () => {
    const p = new ChannelPacer({ intervalMs: 1_050 });
    p.starting('T1', 'U_BOB', 1, 10_000);
    expect(p.readyAt('T1', 'U_BOB', 10_000)).toBe(11_050);
    expect(p.readyAt('T1', 'U_BOB', 11_049)).toBe(11_050);
    expect(p.readyAt('T1', 'U_BOB', 11_050)).toBeUndefined();
    expect(p.readyAt('T1', 'U_CAROL', 10_000)).toBeUndefined();
    expect(p.readyAt('T2', 'U_BOB', 10_000)).toBeUndefined();
  });

  it('waits a second after the latest the previous DM can have arrived', () => {
    const p = new ChannelPacer({ intervalMs: 1_000 });
    // Usual answers take 10 ms; this one took 400 ms, so it may have arrived 390 ms late.
    p.starting('T1', 'U_A', 1, 0);
    p.answered('T1', 'U_A', 0, 10);
    p.starting('T1', 'U_BOB', 2, 0);
    p.answered('T1', 'U_BOB', 0, 400);
    // The first answer, before any round trip is known, counts from the answer.
    expect(p.readyAt('T1', 'U_A', 10)).toBe(1_010);
    expect(p.readyAt('T1', 'U_BOB', 1_000)).toBe(1_390);
  });

  it('pauses only the refused channel for Retry-After', () => {
    const p = new ChannelPacer();
    p.limited('T1', 'U_BOB', 3_000, 1_000);
    expect(p.readyAt('T1', 'U_BOB', 1_000)).toBe(4_000);
    expect(p.readyAt('T1', 'U_CAROL', 1_000)).toBeUndefined();
  });

  it('gives waiting rows the next slots in order; a row seen again keeps its place', () => {
    const p = new ChannelPacer({ intervalMs: 1_000 });
    p.starting('T1', 'U_BOB', 1, 0);
    expect(p.slotFor('T1', 'U_BOB', 2, 10)).toBe(1_000);
    expect(p.slotFor('T1', 'U_BOB', 3, 10)).toBe(2_000);
    expect(p.slotFor('T1', 'U_BOB', 4, 10)).toBe(3_000);
    // Row 2 starts 5 ms late, so row 3 comes due 5 ms early: it waits for the channel only.
    p.starting('T1', 'U_BOB', 2, 1_005);
    expect(p.slotFor('T1', 'U_BOB', 3, 2_000)).toBe(2_005);
    // A new row goes after every slot handed out.
    expect(p.slotFor('T1', 'U_BOB', 5, 2_000)).toBe(4_000);
  });
});

describe('PaceRules.refused', () => {
  it('takes one refused channel for that channel’s limit: the team is not paused', () => {
    const p = new PaceRules();
    const t1: TeamPaceState = {};
    for (let i = 0; i < 50; i++) p.sent(t1, i * 10);
    expect(p.refused(t1, 'U_BOB', 1_000, 600, 590)).toBe('channel');
    expect(p.readyAt(t1, 600)).toBeUndefined();
    // The same channel refused again is still that channel.
    expect(p.refused(t1, 'U_BOB', 1_000, 700, 690)).toBe('channel');
    expect(p.readyAt(t1, 700)).toBeUndefined();
  });

  it('takes refusals in two channels within the window for the team’s limit', () => {
    const p = new PaceRules({ headroom: 1 });
    const t1: TeamPaceState = {};
    for (let i = 0; i < 50; i++) p.sent(t1, i * 10); // 50 in 0.5 s
    expect(p.refused(t1, 'U_BOB', 1_000, 510, 500)).toBe('channel');
    expect(p.refused(t1, 'U_CAROL', 1_000, 520, 505)).toBe('team');
    expect(p.readyAt(t1, 520)).toBe(1_520);
    expect(1_000 / p.intervalOf(t1, 520)!).toBeCloseTo(50, 0);
  });

  it('does not pair refusals further apart than the window', () => {
    const p = new PaceRules();
    const t1: TeamPaceState = {};
    expect(p.refused(t1, 'U_BOB', 1_000, 0, 0)).toBe('channel');
    expect(p.refused(t1, 'U_CAROL', 1_000, 1_500, 1_500)).toBe('channel');
  });
});
