/**
 * Stopping Worklink while a new task made in the service waits out the events' grace (the
 * Slack path's chance to post the card itself): the feed posts the card at once, and the
 * stop does not wait the grace out. With a grace longer than the test's timeout, a stop
 * that waited would fail the test; one that dropped the card would fail its assertion.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.js';
import { linkChannel, shown } from '../tasks/helpers.js';

const EVENTS_SECRET = 'feed-stop-events-secret';
let h: Harness;
let website: string;
beforeAll(async () => {
  h = await startHarness({
    connect: true,
    configure: (c) => ({ ...c, workEventsSecret: EVENTS_SECRET }),
  });
  h.service.setEventsSubscriber({ url: `${h.worklink.url}/work/events`, secret: EVENTS_SECRET });
  h.worklink.parts.notifications.tuning.eventGraceMs = 10 * 60_000;
  website = await linkChannel(h, 0, 'C_GENERAL');
});
afterAll(() => h?.stop());

it('posts a task waiting out the grace when Worklink stops, without waiting it out', async () => {
  await h.slack.slashCommand('feed on');
  await h.waitFor(() => h.worklink.store.channelFeeds.get(h.teamId, 'C_GENERAL'));
  const made = await h.work.createTask({ projectId: website, name: 'Made just before a stop' });
  // The service's event has reached Worklink: it noted the task's creator (activity/seen.ts).
  await h.waitFor(() => h.worklink.store.taskCreators.get(h.teamId, made.taskId));
  await h.worklink.stop();
  const posted = h.fake
    .callsOf('chat.postMessage')
    .filter(
      (c) => c.body.channel === 'C_GENERAL' && shown(c.body).includes('Made just before a stop'),
    );
  expect(posted).toHaveLength(1);
});
