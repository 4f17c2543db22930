/**
 * Names and text from users and the service reach Slack as text, never as live markup: a
 * project or task named `<!channel> <https://evil.example|click> <@U_EVIL> <#C_EVIL>` must not
 * notify a channel, link elsewhere or mention anyone, in blocks or in the `text` fallback
 * (mobile notifications show only that). One pass over the commands, buttons and App Home,
 * then a scan of EVERY call Worklink made to Slack and every response_url post.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACTION } from '../../src/slack/ui/block-ids.js';
import type { RecordedCall, RecordedResponse } from '../support/fake-slack.js';
import { type Harness, startHarness } from '../support/harness.js';
import { mrkdwnStrings } from '../support/mrkdwn-strings.js';
import { linkChannel } from './tasks/helpers.js';

/** Markup a hostile name may carry; none of it may reach Slack unescaped. */
const HOSTILE = '<!channel> <!here> <https://evil.example|click> <@U_EVIL> <#C_EVIL>';
const LIVE = [/<!(channel|here|everyone)\b/, /<https?:\/\/evil\.example/, /<@U_EVIL/, /<#C_EVIL/];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());

function liveMarkup(calls: (RecordedCall | RecordedResponse)[]): string[] {
  const found: string[] = [];
  for (const call of calls) {
    const where = 'method' in call ? call.method : `response_url ${call.id}`;
    for (const text of mrkdwnStrings(call.body)) {
      if (LIVE.some((re) => re.test(text))) found.push(`${where}: ${text.slice(0, 300)}`);
    }
  }
  return found;
}

it('sends no live markup from hostile names anywhere', async () => {
  const projectId = await linkChannel(h, 0);
  await h.work.updateProject(projectId, { projectName: `Website ${HOSTILE}` });
  const replies: Promise<unknown>[] = [];
  const command = async (text: string) => {
    const res = await h.slack.slashCommand(text);
    expect(res.status).toBe(200);
    replies.push(h.replyTo(res));
    return res;
  };

  // As Slack sends them: @channel typed is <!channel>; a typed "<" arrives as &lt;.
  // Quick add answers with the live card in the channel (no reply when nothing else to say).
  await h.slack.slashCommand(
    'add Ship <!channel> &lt;https://evil.example|click&gt; &lt;@U_EVIL&gt; @bob',
  );
  await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel === 'C_GENERAL' && JSON.stringify(c.body).includes('Ship'),
  );
  const task = (await h.work.listTasks({ projectId })).find((t) => t.taskName?.startsWith('Ship'));
  expect(task?.taskName).toBe('Ship <!channel> <https://evil.example|click> <@U_EVIL>');
  const taskId = task!.taskId;
  await h.work.createTask({ projectId, name: `Other ${HOSTILE}`, priority: 2 });

  for (const text of [
    `task ${taskId}`,
    'list',
    `list all ${projectId}`,
    'status',
    `project ${projectId}`,
    `comment ${taskId} looks good`,

    'me',
  ]) {
    await command(text);
  }
  await Promise.all(replies.splice(0));
  // Forms: "Loading…", then the form itself.
  for (const text of ['new', `edit ${taskId}`, `project edit ${projectId}`]) {
    const res = await h.slack.slashCommand(text);
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    const id = await h.waitFor(() => (open.reply as { view?: { id?: string } })?.view?.id);
    await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
  }

  const complete = await h.slack.blockAction({ actionId: ACTION.taskComplete, value: taskId });
  expect(complete.status).toBe(200);
  await h.replyTo(complete);
  await command(`done ${taskId}`);
  await Promise.all(replies.splice(0));
  await h.slack.event({
    type: 'app_home_opened',
    user: h.users.alice.id,
    tab: 'home',
    channel: 'D1',
  });
  await h.fake.waitForCall('views.publish');
  // Bob's assignment DM.
  await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel !== 'C_GENERAL' && String(c.body.text).includes('Ship'),
  );

  // The live card and DM, updated after the completion, are scanned too.
  await h.waitFor(() => h.fake.callsOf('chat.update').length >= 2 || undefined);
  await h.worklink.parts.live.idle();
  const calls = [...h.fake.calls, ...h.fake.responses];
  // The hostile names did reach Slack (escaped), so the scan looked at real text.
  expect(calls.some((c) => JSON.stringify(c.body).includes('&lt;!channel&gt;'))).toBe(true);
  expect(liveMarkup(calls)).toEqual([]);
});

it('sends no live markup from hostile names and replies in a channel feed', async () => {
  h.fake.reset();
  const projectId = (await h.worklink.store.channelProjects.get(h.teamId, 'C_GENERAL'))!.projectId;
  await h.worklink.store.channelProjects.link(h.teamId, 'C_SECOND', projectId, h.users.alice.id);
  await h.worklink.store.channelFeeds.enable(h.teamId, 'C_GENERAL', true, h.users.alice.id);
  await h.worklink.store.channelFeeds.enable(h.teamId, 'C_SECOND', false, h.users.alice.id);
  // Cards, then past 5 in a minute the summary, with hostile names.
  for (let i = 1; i <= 7; i++) {
    await h.slack.slashCommand(`add Burst ${i} <!channel> &lt;@U_EVIL&gt; &lt;#C_EVIL&gt;`);
  }
  await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel === 'C_GENERAL' && JSON.stringify(c.body).includes('more new task'),
  );
  const [task] = (await h.work.listTasks({ projectId })).filter((t) =>
    t.taskName?.startsWith('Burst 1 '),
  );
  const card = await h.waitFor(async () =>
    (await h.worklink.store.channelFeeds.cardsOf(h.teamId, task!.taskId)).find(
      (c) => c.channelId === 'C_GENERAL',
    ),
  );
  const second = await h.waitFor(async () =>
    (await h.worklink.store.channelFeeds.cardsOf(h.teamId, task!.taskId)).find(
      (c) => c.channelId === 'C_SECOND',
    ),
  );
  // A reply in the card's thread, as Slack sends what a person typed: synced, and echoed in
  // the other feed channel's thread, quoted.
  await h.slack.event({
    type: 'message',
    channel_type: 'channel',
    channel: 'C_GENERAL',
    user: h.users.bob.id,
    text: '<!channel> see <https://evil.example|this> &lt;@U_EVIL&gt;',
    ts: `${Date.now() / 1000}`,
    thread_ts: card.ts,
  });
  await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel === 'C_SECOND' && c.body.thread_ts === second.ts,
  );
  await h.worklink.parts.activity.idle();
  await h.worklink.parts.feeds.idle();
  const calls = [...h.fake.calls, ...h.fake.responses];
  expect(calls.some((c) => JSON.stringify(c.body).includes('&lt;!channel&gt;'))).toBe(true);
  expect(liveMarkup(calls)).toEqual([]);
});
