/**
 * The per-team pacer: a 429 pauses only its team for Retry-After, and teaches the team a
 * pace just under what Slack accepted, which is forgotten after a quiet spell.
 */
import { describe, expect, it } from 'vitest';
import { PaceRules } from '../../../src/slack/notify/pacer.js';
import type { TeamPaceState } from '../../../src/store/index.js';

/** Each test's teams' states, made on first use. */
function teamStates() {
  const states = new Map<string, TeamPaceState>();
  return (id: string): TeamPaceState => {
    const s = states.get(id) ?? {};
    states.set(id, s);
    return s;
  };
}

describe('PaceRules', () => {
  it('pauses only the team that got the 429, for Retry-After', () => {
    const p = new PaceRules();
    const team = teamStates();
    p.limited(team('T1'), 2_000, 10_000);
    expect(p.readyAt(team('T1'), 10_000)).toBe(12_000);
    expect(p.readyAt(team('T2'), 10_000)).toBeUndefined();
    expect(p.blockedUntil(team('T1'), 11_999)).toBe(12_000);
    expect(p.blockedUntil(team('T2'), 10_000)).toBe(0);
    expect(p.readyAt(team('T1'), 12_000)).toBeUndefined();
    // One refused send says nothing about the rate: no pace.
    expect(p.intervalOf(team('T1'), 12_000)).toBeUndefined();
  });

  it('learns the pace from a burst refused within the window, and spaces the sends', () => {
    const p = new PaceRules({ headroom: 0.95 });
    const team = teamStates();
    for (let i = 0; i < 50; i++) p.sent(team('T1'), 1_000 + i * 10); // 50 in 0.5 s
    p.limited(team('T1'), 1_000, 1_520, 1_500);
    const interval = p.intervalOf(team('T1'), 1_520)!;
    expect(interval).toBeCloseTo(1_000 / (50 * 0.95), 5);
    expect(p.readyAt(team('T1'), 1_520)).toBe(2_520);
    p.starting(team('T1'), 2_520);
    expect(p.readyAt(team('T1'), 2_520)).toBeCloseTo(2_520 + interval, 5);
    p.starting(team('T1'), 2_520 + interval);
    expect(p.readyAt(team('T1'), 2_520 + interval)).toBeCloseTo(2_520 + 2 * interval, 5);
    expect(p.readyAt(team('T2'), 2_520)).toBeUndefined();
  });

  it('does not learn from sends that started while the team was paused', () => {
    // bench:scale, two instances: slots reserved before a 429 were sent during its pause; a
    // couple were accepted, the next two refused, and the team learned 2 a second from them
    // (a crawl at 5.8/s against a limit of 50/s).
    const p = new PaceRules({ headroom: 1 });
    const team = teamStates();
    for (let i = 0; i < 50; i++) p.sent(team('T1'), 1_000 + i * 10);
    p.limited(team('T1'), 1_000, 1_520, 1_500);
    expect(1_000 / p.intervalOf(team('T1'), 1_520)!).toBeCloseTo(50, 5);
    // Paused until 2 520: two reserved sends accepted, two refused.
    p.sent(team('T1'), 1_600);
    p.sent(team('T1'), 1_610);
    p.limited(team('T1'), 1_000, 1_700, 1_620);
    expect(1_000 / p.intervalOf(team('T1'), 1_700)!).toBeCloseTo(50, 5);
    // Still a refusal: the pause grows.
    expect(p.readyAt(team('T1'), 1_700)).toBe(2_700);
  });

  it('learns from a long run at about the limit', () => {
    const p = new PaceRules({ headroom: 1 });
    const team = teamStates();
    for (let i = 0; i < 200; i++) p.sent(team('T1'), i * 25); // 40/s for 5 s
    p.limited(team('T1'), 1_000, 5_000, 5_000);
    expect(1_000 / p.intervalOf(team('T1'), 5_000)!).toBeCloseTo(40, 0);
  });

  it('lets a late start catch up a little, but a long idle gap does not become a burst', () => {
    const p = new PaceRules({ headroom: 1 });
    const team = teamStates();
    for (let i = 0; i < 10; i++) p.sent(team('T1'), i * 100); // 10/s
    p.limited(team('T1'), 1_000, 1_000, 1_000);
    // Ready at 2 000, then every 100 ms. Starting 150 ms late, the next send may go at once…
    p.starting(team('T1'), 2_150);
    expect(p.readyAt(team('T1'), 2_150)).toBeUndefined();
    p.starting(team('T1'), 2_150);
    // …and then the pace resumes.
    expect(p.readyAt(team('T1'), 2_150)).toBeCloseTo(2_200, 5);
    // After a minute of nothing, at most three go at once.
    p.starting(team('T1'), 60_000);
    p.starting(team('T1'), 60_000);
    expect(p.readyAt(team('T1'), 60_000)).toBeUndefined();
    p.starting(team('T1'), 60_000);
    expect(p.readyAt(team('T1'), 60_000)).toBeCloseTo(60_100, 5);
  });

  it('forgets the pace after a quiet hold time', () => {
    const p = new PaceRules({ holdMs: 10_000 });
    const team = teamStates();
    for (let i = 0; i < 20; i++) p.sent(team('T1'), i * 10);
    p.limited(team('T1'), 1_000, 300, 300);
    expect(p.intervalOf(team('T1'), 9_000)).toBeDefined();
    expect(p.intervalOf(team('T1'), 10_300)).toBeUndefined();
    expect(p.readyAt(team('T1'), 10_300)).toBeUndefined();
  });
});

describe('PaceRules and other calls', () => {
  it('only pauses when the refused call was not a send', () => {
    const p = new PaceRules();
    const team = teamStates();
    for (let i = 0; i < 50; i++) p.sent(team('T1'), i * 10);
    p.limited(team('T1'), 1_000, 600);
    expect(p.readyAt(team('T1'), 600)).toBe(1_600);
    expect(p.intervalOf(team('T1'), 600)).toBeUndefined();
  });
});
