/**
 * A comment made in the service is told when an answer Worklink sees carries it (issue 22):
 * with no events (the embedded service not subscribed, as the hosted one never is), an update
 * task answer's `Comments` shows a comment Carol wrote in the service; it reaches the feed
 * card's thread once. The first answer seen for a task only marks its comments.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FEED_EVENTS } from '../../../src/store/index.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { SureWorkClient } from '../../support/sure-work.js';
import { findTask, linkChannel } from '../tasks/helpers.js';

let h: Harness;
afterAll(() => h?.stop());
beforeAll(async () => {
  h = await startHarness({ connect: true });
  h.worklink.parts.notifications.tuning.eventGraceMs = 100;
});

it('a comment carried by an update answer reaches the feed thread once', async () => {
  const website = await linkChannel(h, 0, 'C_GENERAL');
  await h.worklink.store.channelFeeds.enable(h.teamId, 'C_GENERAL', false, 'U_ALICE', undefined, {
    events: [...FEED_EVENTS],
    filters: {},
  });
  await h.slack.slashCommand('add Comment seen in an answer');
  const task = await h.waitFor(() => findTask(h, website, 'Comment seen in an answer'));
  const card = await h.waitFor(async () =>
    (await h.worklink.store.channelFeeds.cardsOf(h.teamId, task.taskId)).at(0),
  );
  // Worklink updates it once (its answer's Comments: none yet), then Carol comments there.
  await h.slack.slashCommand(`done ${task.taskId}`);
  await h.fake.waitForCall('chat.postMessage', (c) => c.body.thread_ts === card.ts);
  const carol = h.seed.users.find((u) => u.name.startsWith('Carol'))!;
  const asCarol = new SureWorkClient({ ...h.worklink.workUrls, apiKey: carol.apiKey ?? '' });
  await asCarol.postComment(task.taskId, { content: 'Written in the web app' });
  // The next update answer carries it.
  await h.slack.slashCommand(`reopen ${task.taskId}`);
  await h.slack.blockAction({ actionId: 'task_reopen', value: task.taskId });
  const told = await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.thread_ts === card.ts && String(c.body.text).includes('Written in the web app'),
    8_000,
  );
  expect(told.body.text).toContain('💬 <@U_CAROL> commented:');
  // Another answer carrying it: not again.
  await h.slack.slashCommand(`done ${task.taskId}`);
  await new Promise((r) => setTimeout(r, 800));
  await h.worklink.parts.activity.idle();
  await h.worklink.parts.feeds.idle();
  expect(
    h.fake
      .callsOf('chat.postMessage')
      .filter((c) => c.body.thread_ts === card.ts)
      .filter((c) => String(c.body.text).includes('Written in the web app')),
  ).toHaveLength(1);
  // Its creator (Alice) was told too, once.
  expect(
    h.fake
      .callsOf('chat.postMessage')
      .filter((c) => c.body.channel === 'U_ALICE')
      .filter((c) => String(c.body.text).includes('Written in the web app')),
  ).toHaveLength(1);
});
