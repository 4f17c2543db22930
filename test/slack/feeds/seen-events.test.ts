/**
 * Changes made in the embedded service itself reach Slack through its events (issue 22,
 * section 1): completing, reopening, renaming, re-dating and re-assigning a task there — as
 * another person, with their own key — update the feed card in place, put one reply per change
 * in its thread (several seen together: one reply), DM the creator the completion and new
 * assignees their assignment, each once; a comment made there reaches the thread and the
 * people on the task. (The fake Slack forgets its messages between tests, so the card's
 * update in place is checked in the first.) A change made from Slack is told once, not again when its event comes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FEED_EVENTS } from '../../../src/store/index.js';
import { SureWorkClient } from '../../support/sure-work.js';
import { findTask, shown } from '../tasks/helpers.js';
import { useFeedHarness } from './feed-harness.js';

const f = useFeedHarness();
let carol: SureWorkClient;
let taskId: string;
let card: { channelId: string; ts: string };

const person = (first: string) => f.h.seed.users.find((u) => u.name.startsWith(first))!;
const thread = () =>
  f.h.fake
    .callsOf('chat.postMessage')
    .filter((c) => c.body.channel === 'C_GENERAL' && c.body.thread_ts === card.ts)
    .map((c) => String(c.body.text));
const dmsTo = (user: string, text: string) =>
  f.h.fake
    .callsOf('chat.postMessage')
    .filter((c) => c.body.channel === user && shown(c.body).includes(text));
const inThread = (text: string) =>
  f.h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.thread_ts === card.ts && String(c.body.text).includes(text),
    8_000,
  );

beforeAll(async () => {
  const { h } = f;
  await h.worklink.store.channelFeeds.enable(h.teamId, 'C_GENERAL', false, 'U_ALICE', undefined, {
    events: [...FEED_EVENTS],
    filters: {},
  });
  const carolKey = (person('Carol') as { apiKey?: string }).apiKey;
  if (!carolKey) throw new Error('the seed gives every demo user a key');
  carol = new SureWorkClient({ ...h.worklink.workUrls, apiKey: carolKey });
  await h.slack.slashCommand(`add Seen through events @bob in:${f.website}`);
  taskId = (await h.waitFor(() => findTask(h, f.website, 'Seen through events'))).taskId;
  card = await f.feedCard(taskId);
  await h.fake.waitForCall('chat.postMessage', (c) => c.body.channel === 'U_BOB');
  await f.settled();
});

describe('a task changed in the embedded service', () => {
  it('completion: one thread reply naming who, the card updated, the creator DMed once', async () => {
    const details = await carol.getProjectDetails(f.website);
    const done = details.Status?.find((s) => s.Type === 3)?._id;
    await carol.updateTask(taskId, { projectId: f.website, statusId: done });
    await inThread('✅ <@U_CAROL> completed this task.');
    await f.h.fake.waitForCall(
      'chat.update',
      (c) => c.body.ts === card.ts && shown(c.body.blocks).includes('Reopen'),
      // Live updates are paced (one per 1.2 s per team past a burst).
      15_000,
    );
    await f.h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'U_ALICE' && shown(c.body).includes('completed'),
    );
    await f.settled();
    expect(thread().filter((t) => t.includes('completed'))).toHaveLength(1);
    expect(dmsTo('U_ALICE', 'completed')).toHaveLength(1);
    // Bob's assignment DM shows it too.
    expect(
      f.h.fake
        .callsOf('chat.update')
        .some((c) => c.body.channel === 'D_BOB' && shown(c.body).includes('Status: *Done*')),
    ).toBe(true);
  });

  it('reopening, then a rename and a new date together: one reply each', async () => {
    const details = await carol.getProjectDetails(f.website);
    const todo = details.Status?.find((s) => s.Type === 1)?._id;
    await carol.updateTask(taskId, { projectId: f.website, statusId: todo });
    await inThread('↩️ <@U_CAROL> reopened this task.');
    await carol.updateTask(taskId, {
      projectId: f.website,
      name: 'Seen through events, renamed',
      dueDate: '2026-12-24',
    });
    const reply = await inThread('changed this task');
    expect(reply.body.text).toBe(
      '✏️ <@U_CAROL> changed this task: renamed to *Seen through events, renamed*; due Thu, Dec 24, 2026 (was none).',
    );
    await f.settled();
    expect(thread().filter((t) => t.includes('reopened'))).toHaveLength(1);
    expect(thread().filter((t) => t.includes('changed this task'))).toHaveLength(1);
  });

  it('re-assignment: the new assignee DMed once, the thread told who came and went', async () => {
    await carol.updateTask(taskId, { projectId: f.website, taskUsers: [person('Dan').id] });
    await inThread('👤 <@U_CAROL> assigned <@U_DAN>');
    await inThread('removed <@U_BOB>');
    await f.h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'U_DAN' && shown(c.body).includes('Seen through events'),
    );
    await f.settled();
    expect(dmsTo('U_DAN', 'assigned you')).toHaveLength(1);
  });

  it('a comment made there reaches the thread and the people on the task', async () => {
    await carol.postComment(taskId, { content: 'Done from the web app & checked' });
    const reply = await inThread('commented');
    expect(reply.body.text).toContain(
      '💬 <@U_CAROL> commented:\n>Done from the web app &amp; checked',
    );
    await f.h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'U_DAN' && shown(c.body).includes('Done from the web app'),
    );
    await f.settled();
    expect(thread().filter((t) => t.includes('commented'))).toHaveLength(1);
  });

  it('a change made from Slack is told once, not again when its event or a read comes', async () => {
    await f.h.slack.slashCommand(`done ${taskId}`, { userId: f.h.users.dan.id });
    await inThread('✅ <@U_DAN> completed this task.');
    await f.h.slack.slashCommand(`comment ${taskId} From Slack this time`, {
      userId: f.h.users.dan.id,
    });
    await inThread('From Slack this time');
    await f.settled();
    await new Promise((r) => setTimeout(r, 600));
    // A read of the task (any command's) sees nothing new either.
    await f.h.slack.slashCommand(`task ${taskId}`);
    await f.settled();
    expect(thread().filter((t) => t.includes('completed'))).toHaveLength(1);
    expect(thread().filter((t) => t.includes('From Slack this time'))).toHaveLength(1);
  });
});
