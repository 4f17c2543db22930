/**
 * The feed in the local demo (`npm start`): the sandbox reads the manifest's bot events, so a
 * reply typed in a feed card's thread on the page reaches Worklink as a `message` event and
 * becomes a comment on the task.
 */
import { expect, it } from 'vitest';
import { waitFor } from '../../sandbox/helpers.js';
import { useSandboxStack } from '../../support/sandbox-stack.js';
import { SureWorkClient } from '../../support/sure-work.js';

const ALICE = 'U0SBALICE';
const BOB = 'U0SBBOB';

const stack = useSandboxStack('worklink-feed-sandbox-');

const state = () => stack().sandbox.state;
const botMessage = (channel: string, text: string) =>
  (state().messages.get(channel) ?? []).find(
    (m) => m.user === state().bot.botUserId && !m.ephemeralTo && JSON.stringify(m).includes(text),
  );

it('a reply typed in a feed card’s thread becomes a comment, signed with its author', async () => {
  const website = [...state().channels.values()].find((c) => c.name === 'website')!.id;
  const say = async (user: string, text: string, threadTs?: string) =>
    expect((await stack().sandbox.interactions.sendMessage(user, website, text, threadTs)).ok).toBe(
      true,
    );
  await say(ALICE, '/work feed on sync');
  await waitFor(() => botMessage(website, 'task feed on'), 'the feed announcement');
  await say(ALICE, '/work add Thread in the sandbox @bob');
  const card = await waitFor(() => botMessage(website, 'Thread in the sandbox'), 'the feed card');
  await say(BOB, 'Taking it today', card.ts);

  const seed = stack().setup.seed!;
  const work = new SureWorkClient({ ...stack().worklink.workUrls, apiKey: seed.apiKey });
  const task = (await work.listTasks({ projectId: websiteProject() })).find(
    (t) => t.taskName === 'Thread in the sandbox',
  )!;
  const comments = async () => {
    const u = await work.updateTask(task.taskId, { projectId: websiteProject() });
    return (u.Comments ?? []).filter((c) => c.Type === 1).map((c) => c.Comment);
  };
  await waitFor(async () => ((await comments()).length === 1 ? true : undefined), 'the comment');
  expect(await comments()).toEqual(['Taking it today\n\n— Bob Brown (via Slack)']);
});

function websiteProject(): string {
  return stack().setup.seed!.projects.find((p) => p.projectName === 'Website relaunch')!.projectId;
}
