/**
 * Slack look-ups within Slack's limits (issue 24, finding 5), against a fake Slack that
 * enforces 50 users.lookupByEmail a minute (429 with Retry-After past it): `/work task` on an
 * 81-assignee task makes its look-ups a few at a time (never more than the limiter's
 * concurrency) and none is refused; the card is answered without waiting for all of them; and
 * while the team's look-ups wait out a 429, a DM to someone already known still goes out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONCURRENCY } from '../../src/slack/context/slack-limiter.js';
import { waitFor } from '../support/harness.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

const PER_MINUTE = 50;
let h: HostedHarness;
const started: number[] = [];
let inFlight = 0;
let maxInFlight = 0;
let refused = 0;
/** While set, every look-up is answered 429 (the team's minute is used up). */
let exhausted = false;

const dmTo = (user: string, text: string) =>
  h.fake
    .callsOf('chat.postMessage')
    .some((c) => c.body.channel === user && JSON.stringify(c.body).includes(text));

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  h = await startHostedHarness({ connect: true });
  h.worklink.parts.notifications.tuning.eventGraceMs = 100;
  h.fake.script('users.lookupByEmail', async () => {
    const now = Date.now();
    if (exhausted) {
      refused++;
      return { status: 429, headers: { 'retry-after': '30' } };
    }
    const lastMinute = started.filter((t) => now - t < 60_000);
    if (lastMinute.length >= PER_MINUTE) {
      refused++;
      const wait = Math.ceil((60_000 - (now - lastMinute[0]!)) / 1000);
      return { status: 429, headers: { 'retry-after': String(wait) } };
    }
    started.push(now);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await pause(150);
    inFlight--;
    return undefined;
  });
  // 76 more people in the service: with the 5 seeded ones, 81 assignees.
  for (let i = 0; i < 76; i++) {
    h.hosted.userList.push({
      id: `u${i}`.padEnd(24, '0'),
      name: `Person ${i}`,
      email: `p${i}@example.com`,
    });
  }
});
afterAll(() => h?.stop());

describe('a card with 81 assignees', () => {
  it('looks its people up a few at a time, within the minute’s limit, and answers anyway', async () => {
    const taskId = h.hosted.addTask({
      projectId: h.hosted.projects.website,
      name: 'Everyone at once',
      assignees: h.hosted.userList.map((u) => u.id),
    });
    const reply = await h.replyTo(await h.slack.slashCommand(`task ${taskId}`), 15_000);
    expect(JSON.stringify(reply)).toContain('Everyone at once');
    expect(maxInFlight).toBeGreaterThan(0);
    expect(maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
    expect(refused).toBe(0);
    // Fewer look-ups were made than people: the rest go on at the tier's pace.
    expect(started.length).toBeLessThan(81);
  });
});

describe('a DM while the team’s look-ups wait out a 429', () => {
  it('goes out to a person already known', async () => {
    // Bob is known: a DM to him was sent (his look-up went ahead of the card's many).
    // A channel's quick add is confirmed by a card in the channel (no response_url answer).
    await h.slack.slashCommand('add Warm up @bob in:"Website relaunch"');
    await waitFor(() => dmTo('U_BOB', 'Warm up'), { timeoutMs: 15_000 });
    exhausted = true;
    const before = refused;
    const bigTask = h.hosted.addTask({
      projectId: h.hosted.projects.website,
      name: 'Everyone again',
      assignees: h.hosted.userList.slice(10).map((u) => u.id),
    });
    const card = h.slack.slashCommand(`task ${bigTask}`);
    // The card's look-ups are refused first (else the DM could simply go out before them).
    await waitFor(() => refused > before, { timeoutMs: 15_000 });
    await h.slack.slashCommand('add Urgent for Bob @bob in:"Website relaunch"');
    await waitFor(() => dmTo('U_BOB', 'Urgent for Bob'), { timeoutMs: 15_000 });
    // The look-ups were refused and are waiting (30 s), yet the DM went out.
    expect(refused).toBeGreaterThan(before);
    await h.replyTo(await card, 15_000);
    exhausted = false;
  });
});
