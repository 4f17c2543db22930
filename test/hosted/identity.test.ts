/**
 * Who acts, against the hosted-style fake (each of its people may hold a key of their own,
 * acting as them), through signed Slack requests: Bob connects his own key and his thread
 * reply in a synced feed is his comment in the service with nothing appended; a Slack Connect
 * person's reply is not synced; when the service revokes Bob's key he is told once and his
 * next reply goes through the workspace's key, signed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/harness.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

let h: HostedHarness;
let taskId: string;
let card: string;

beforeAll(async () => {
  h = await startHostedHarness({ connect: true });
  const alice = h.users.alice.id;
  await h.worklink.store.channelProjects.link(
    h.teamId,
    'C_GENERAL',
    h.hosted.projects.website,
    alice,
  );
  await h.worklink.store.channelFeeds.enable(h.teamId, 'C_GENERAL', true, alice);
  await h.slack.slashCommand('add Who says so');
  taskId = await waitFor(
    () => [...h.hosted.tasks.values()].find((t) => t.name === 'Who says so')?.id,
  );
  card = await waitFor(
    async () =>
      (await h.worklink.store.channelFeeds.cardsOf(h.teamId, taskId)).find(
        (c) => c.channelId === 'C_GENERAL',
      )?.ts,
  );
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());

const reply = (user: string, text: string) =>
  h.slack.event({
    type: 'message',
    channel_type: 'channel',
    channel: 'C_GENERAL',
    user,
    text,
    ts: `${Date.now() / 1000}`,
    thread_ts: card,
  });

const commentsOf = () => h.hosted.comments.filter((c) => c.taskId === taskId);

describe('against the hosted-style service', () => {
  it('Bob’s own key: his reply is his comment, with no “via Slack” line', async () => {
    const res = await h.slack.slashCommand(`connect me ${h.hosted.userKeys.bob}`, {
      userId: h.users.bob.id,
    });
    expect((await h.replyTo(res)).text).toMatch(/^Connected your own account: .+\*Bob Brown\*/);
    await reply(h.users.bob.id, 'Mine to do');
    const [comment] = await waitFor(() => (commentsOf().length ? commentsOf() : undefined));
    expect(comment).toEqual({ taskId, content: 'Mine to do', createdBy: h.hosted.users.bob });
  });

  it('a Slack Connect person’s reply is not synced', async () => {
    const erin = h.users.erin;
    h.fake.users.set(erin.id, { ...erin, teamId: 'T_PARTNER' });
    h.worklink.deps.users.forget(h.teamId, erin.id);
    const before = commentsOf().length;
    await reply(erin.id, 'Partner says hi');
    const told = await h.fake.waitForCall('chat.postEphemeral', (c) => c.body.user === erin.id);
    expect(String(told.body.text)).toMatch(/^You are from another Slack organisation/);
    expect(commentsOf()).toHaveLength(before);
  });

  it('a revoked own key: Bob is told once, then acts through the workspace key, signed', async () => {
    h.hosted.revokeKey(h.hosted.userKeys.bob);
    const before = commentsOf().length;
    await reply(h.users.bob.id, 'First after revoking');
    const failed = await h.fake.waitForCall(
      'chat.postEphemeral',
      (c) => c.body.user === h.users.bob.id,
    );
    expect(String(failed.body.text)).toContain('no longer accepts your own API key');
    await reply(h.users.bob.id, 'Second after revoking');
    await waitFor(() => commentsOf().length === before + 1);
    expect(commentsOf().at(-1)).toEqual({
      taskId,
      content: 'Second after revoking\n\n— Bob Brown (via Slack)',
      createdBy: h.hosted.users.alice,
    });
    const dms = h.fake
      .callsOf('chat.postMessage')
      .filter(
        (c) =>
          c.body.channel === h.users.bob.id && String(c.body.text).includes('your own API key'),
      );
    expect(dms).toHaveLength(1);
  });
});
