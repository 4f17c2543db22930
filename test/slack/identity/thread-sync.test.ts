/**
 * Thread replies in a synced feed (`/work feed on sync`), as the person who wrote them:
 * with their own key the service names them and nothing is appended; guests and people of
 * another organisation (Slack Connect) are not synced through the workspace's key, and are
 * told why in the thread.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useFeedHarness } from '../feeds/feed-harness.js';
import { findTask, serviceView } from '../tasks/helpers.js';

const f = useFeedHarness();

beforeAll(async () => {
  await f.h.slack.slashCommand('feed on sync', { channelId: 'C_GENERAL' });
  await f.h.waitFor(
    async () => (await f.h.worklink.store.channelFeeds.get(f.h.teamId, 'C_GENERAL'))?.sync,
  );
});
afterEach(async () => {
  for (const who of ['bob', 'erin'] as const) {
    const u = f.h.users[who];
    f.h.fake.users.set(u.id, { ...u });
    f.h.worklink.deps.users.forget(f.h.teamId, u.id);
  }
  await f.h.worklink.store.personalKeys.delete(f.h.teamId, f.h.users.bob.id);
});

async function cardOf(name: string) {
  await f.h.slack.slashCommand(`add ${name} in:${f.website}`, { channelId: 'D_ALICE' });
  const task = await f.h.waitFor(() => findTask(f.h, f.website, name));
  return { task, card: await f.feedCard(task.taskId) };
}

const reply = (ts: string, user: string, text: string) =>
  f.h.slack.event({
    type: 'message',
    channel_type: 'channel',
    channel: 'C_GENERAL',
    user,
    text,
    ts: `${Date.now() / 1000}`,
    thread_ts: ts,
  });

async function comments(taskId: string) {
  const { updated } = await serviceView(f.h, taskId);
  return (updated.Comments ?? []).filter((c) => c.Type === 1);
}

describe('a synced thread reply', () => {
  it('with Bob’s own key is Bob’s comment in the service, with no “via Slack” line', async () => {
    const bob = f.h.seed.users.find((u) => u.email === 'bob@example.com')!;
    const connected = await f.h.slack.slashCommand(`connect me ${bob.apiKey}`, {
      userId: f.h.users.bob.id,
    });
    expect((await f.h.replyTo(connected)).text).toMatch(/^Connected your own account/);
    const { task, card } = await cardOf('Bob replies himself');
    await reply(card.ts, f.h.users.bob.id, 'On it');
    const [comment] = await f.h.waitFor(async () => {
      const list = await comments(task.taskId);
      return list.length ? list : undefined;
    });
    expect(comment?.Comment).toBe('On it');
    expect(comment?.CreatedBy).toBe(bob.id);
    expect(comment?.CreatedBy).not.toBe(f.h.seed.users[0]!.id);
  });

  it('from someone of another organisation (Slack Connect) is not synced, and they are told', async () => {
    const erin = f.h.users.erin;
    f.h.fake.users.set(erin.id, { ...erin, teamId: 'T_PARTNER' });
    f.h.worklink.deps.users.forget(f.h.teamId, erin.id);
    const { task, card } = await cardOf('Partner replies');
    await reply(card.ts, erin.id, 'From the partner org');
    const told = await f.h.fake.waitForCall(
      'chat.postEphemeral',
      (c) => c.body.user === erin.id && c.body.thread_ts === card.ts,
    );
    expect(String(told.body.text)).toMatch(/^You are from another Slack organisation/);
    expect(String(told.body.text)).toContain('your reply was not added to the task');
    await f.settled();
    expect(await comments(task.taskId)).toEqual([]);
  });

  it('from a guest is not synced either', async () => {
    const bob = f.h.users.bob;
    f.h.fake.users.set(bob.id, { ...bob, isUltraRestricted: true });
    f.h.worklink.deps.users.forget(f.h.teamId, bob.id);
    const { task, card } = await cardOf('Guest replies');
    await reply(card.ts, bob.id, 'Guest words');
    await f.h.fake.waitForCall('chat.postEphemeral', (c) => c.body.user === bob.id);
    await f.settled();
    expect(await comments(task.taskId)).toEqual([]);
  });
});
