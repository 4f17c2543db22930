/**
 * The app against the embedded service for the feed tests: the service subscribed to the
 * app's events (as a configured one is), a short events' grace, #general linked to Website
 * relaunch and #onboarding to Customer onboarding, and a fake clock that moves a minute on
 * before each test (the burst rule then counts only that test's posts).
 *
 *   const f = useFeedHarness();
 *   it('…', async () => { await f.h.slack.slashCommand('feed on'); await f.feedCard(id); });
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RecordedCall } from '../../support/fake-slack.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { linkChannel, shown } from '../tasks/helpers.js';

const EVENTS_SECRET = 'feeds-test-events-secret';

export interface FeedHarness {
  h: Harness;
  website: string;
  onboarding: string;
  /** Moves the app's clock on. */
  advance(ms: number): void;
  /** Waits for every activity listener (feeds included), and the events' grace after it. */
  settled(): Promise<void>;
  /** Top-level messages posted in `channel` that show `name`. */
  posts(channel: string, name: string): RecordedCall[];
  /** The feed card of the task in `channel`, once posted. */
  feedCard(taskId: string, channel?: string): Promise<{ channelId: string; ts: string }>;
}

export const replyTs = (c: RecordedCall) => (c.reply as { ts?: string } | undefined)?.ts;

export function useFeedHarness(): FeedHarness {
  let now = Date.parse('2026-11-23T15:00:00Z');
  const f = {
    advance: (ms: number) => {
      now += ms;
    },
  } as FeedHarness;
  beforeAll(async () => {
    const h = await startHarness({
      connect: true,
      clock: () => now,
      configure: (c) => ({ ...c, workEventsSecret: EVENTS_SECRET }),
    });
    f.h = h;
    h.service.setEventsSubscriber({ url: `${h.worklink.url}/work/events`, secret: EVENTS_SECRET });
    h.worklink.parts.notifications.tuning.eventGraceMs = 300;
    f.website = await linkChannel(h, 0, 'C_GENERAL');
    f.onboarding = await linkChannel(h, 1, 'C_ONBOARDING');
  });
  afterAll(() => f.h?.stop());
  beforeEach(() => {
    f.h.fake.reset();
    now += 61_000;
  });
  f.settled = async () => {
    await new Promise((r) => setTimeout(r, 450));
    await f.h.worklink.parts.activity.idle();
    await f.h.worklink.parts.feeds.idle();
  };
  f.posts = (channel, name) =>
    f.h.fake
      .callsOf('chat.postMessage')
      .filter(
        (c) => c.body.channel === channel && !c.body.thread_ts && shown(c.body).includes(name),
      );
  f.feedCard = (taskId, channel = 'C_GENERAL') =>
    f.h.waitFor(async () =>
      (await f.h.worklink.store.channelFeeds.cardsOf(f.h.teamId, taskId)).find(
        (c) => c.channelId === channel,
      ),
    );
  return f;
}
