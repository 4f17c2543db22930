/**
 * Tasks named by words, `#number` or id in `/work task|edit|done|comment|assign`, through
 * signed slash commands and pick-list buttons against the embedded service. The index starts
 * empty: the first look-up lists the projects concerned (the refresh's on-demand read).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { linkChannel, serviceView, shown } from './helpers.js';

let h: Harness;
let website: string;
const seedUser = (name: string) => h.seed.users.find((u) => u.name.startsWith(name))!;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
  await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
  await h.worklink.store.knownProjects.remember(
    h.teamId,
    h.seed.projects[1]!.projectId,
    'Customer onboarding',
  );
});
afterAll(() => h?.stop());
beforeEach(async () => {
  await h.worklink.store.channelProjects.unlink(h.teamId, 'C_GENERAL');
  h.fake.reset();
});

/** The app's own client for the team: what it creates, the index sees (as from Slack). */
const appWork = async () =>
  h.worklink.deps.workClients.for((await h.worklink.store.connections.get(h.teamId))!);

async function reply(command: string, userId = h.users.alice.id) {
  const res = await h.slack.slashCommand(command, { userId });
  expect(res.status).toBe(200);
  return h.replyTo(res);
}

describe('by words', () => {
  it('acts on the one task whose name has the words, in any order and by prefix', async () => {
    const card = await reply('task sitem draft');
    expect(shown(card.blocks)).toContain('*Draft the sitemap* #1');
    expect(shown(card.blocks)).toContain('Website relaunch');
  });

  it('answers a pick list when several match, and its button finishes the command', async () => {
    const a = (await (await appWork()).createTask({ projectId: website, name: 'Fix login page' }))!;
    const b = (await (
      await appWork()
    ).createTask({
      projectId: website,
      name: 'Fix login button',
      taskUsers: [seedUser('Bob').id],
    }))!;
    await (await appWork()).updateTask(b.taskId, { projectId: website }); // tells its number
    const list = await reply('done login fix');
    expect(list.text).toBe('2 tasks match. Which one?');
    const rows = shown(list.blocks);
    expect(rows).toContain('Fix login page');
    expect(rows).toContain('Fix login button');
    expect(rows).toContain('Website relaunch');
    expect(rows).toContain('Bob Brown');
    expect(rows).toMatch(/#\d+ Fix login button/);

    const buttons = (list.blocks as { accessory?: { action_id: string; value: string } }[])
      .map((b) => b.accessory)
      .filter((x) => x?.action_id === ACTION.taskPick);
    expect(buttons).toHaveLength(2);
    const pageButton = buttons.find((x) => x!.value.includes(a.taskId))!;
    const res = await h.slack.blockAction({ actionId: ACTION.taskPick, value: pageButton.value });
    const done = await h.replyTo(res);
    expect(done.replace_original).toBe(true);
    expect(done.text).toBe('Marked *Fix login page* complete (status *Done*).');
    expect((await h.work.getTask(a.taskId)).status).toBe(true);
    expect((await h.work.getTask(b.taskId)).status).toBe(false);

    // Now one open task matches: done acts at once.
    expect((await reply('done fix login')).text).toBe(
      'Marked *Fix login button* complete (status *Done*).',
    );
  });

  it('says when nothing matches and offers /work new', async () => {
    expect((await reply('task zebra unicorn')).text).toBe(
      'No task matches “zebra unicorn”. Create it with `/work new zebra unicorn`.',
    );
  });

  it('comments on the task named before the colon', async () => {
    const { taskId } = (await (
      await appWork()
    ).createTask({
      projectId: website,
      name: 'Review copy deck',
    }))!;
    expect((await reply('comment copy deck review: Reads well')).text).toBe(
      'Added your comment to *Review copy deck*.',
    );
    const { updated } = await serviceView(h, taskId);
    expect((updated.Comments ?? []).map((c) => c.Comment?.split('\n')[0])).toContain('Reads well');
  });

  it('refuses junk that has no words at all', async () => {
    expect((await reply('task !!! ???')).text).toContain('No task matches');
  });
});

describe('by #number', () => {
  it('finds the number in the channel’s project', async () => {
    await linkChannel(h, 0);
    const card = await reply('task #2');
    expect(shown(card.blocks)).toContain('*Design the home page* #2');
  });

  it('finds the number in a project named by words, from any channel', async () => {
    const card = await reply('task #1 in onboarding customer');
    expect(shown(card.blocks)).toContain('Customer onboarding');
    expect(shown(card.blocks)).toContain('#1');
  });

  it('explains what is missing: no channel project, unknown project, unknown number', async () => {
    expect((await reply('task #2')).text).toContain('This channel has no project');
    expect((await reply('task #2 in nowhere land')).text).toContain(
      'No project Worklink knows is called *nowhere land*',
    );
    await linkChannel(h, 0);
    expect((await reply('task #999')).text).toBe('There is no task #999 in *Website relaunch*.');
  });

  it('assigns more people, keeping those already on the task', async () => {
    await linkChannel(h, 0);
    expect((await reply('assign #1 @carol')).text).toBe(
      'Assigned Carol Chen to *Draft the sitemap*.',
    );
    const task = (await h.work.listTasks({ projectId: website }))[0]!;
    const users = (await h.work.getTask(task.taskId)).taskUsers?.map((u) => u.taskUserId);
    expect(users).toEqual([seedUser('Bob').id, seedUser('Carol').id]);
    expect((await reply('assign #1 @carol')).text).toBe(
      'Everyone named is already assigned to *Draft the sitemap*; nothing was changed.',
    );
    expect((await reply('assign #1')).text).toContain('Name the task, then the people');
  });
});
