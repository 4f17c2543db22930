/**
 * The task subcommands through signed slash commands against the embedded service:
 * add, list, task, done, comment, new, and bad input for each.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseDueDate } from '../../../src/slack/parse/due-date.js';
import { VIEW } from '../../../src/slack/ui/block-ids.js';
import { STATUS_TYPE } from '../../../src/workapi/contract.js';
import { type Harness, startHarness } from '../../support/harness.js';
import {
  answeredView,
  findTask,
  inputWith,
  linkChannel,
  serviceView,
  shown,
  statusesOf,
  viewOf,
} from './helpers.js';

let h: Harness;
let website: string;
let onboarding: string;
const seedUser = (name: string) => h.seed.users.find((u) => u.name.startsWith(name))!;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
  onboarding = h.seed.projects[1]!.projectId;
});
afterAll(() => h?.stop());
beforeEach(async () => {
  await h.worklink.store.channelProjects.unlink(h.teamId, 'C_GENERAL');
  h.fake.reset();
});

async function replyText(command: string, userId = h.users.alice.id, channelId?: string) {
  const res = await h.slack.slashCommand(command, { userId, channelId });
  expect(res.status).toBe(200);
  return (await h.replyTo(res)).text ?? '';
}

async function taskCount(projectId: string) {
  return (await h.work.listTasks({ projectId })).length;
}

describe('/work add', () => {
  it('creates the task in the channel’s project and posts one compact card there for everyone', async () => {
    await linkChannel(h, 0);
    const res = await h.slack.slashCommand('add Fix the login page @bob due:2026-12-01 p:high');
    const post = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_GENERAL',
    );

    const task = await findTask(h, website, 'Fix the login page');
    expect(task).toBeDefined();
    expect(task?.taskUsers).toEqual([{ taskUserId: seedUser('Bob').id }]);
    expect(task?.dueDate?.slice(0, 10)).toBe('2026-12-01');
    expect(task?.priority).toBe('2');
    const card = shown(post.body.blocks);
    expect(card).toMatch(
      /<@U_ALICE> created \*#\d+ Fix the login page\* for <@U_BOB>, due Tue, Dec 1, 2026/,
    );
    expect(card).toContain(task!.taskId);
    expect(card).toContain('Mark complete');
    // announceNewTask's visible effect: Bob's assignment DM.
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'U_BOB' && shown(c.body).includes(task!.taskId),
    );
    // Everyone was told and nothing was odd: no second message for the author.
    expect(h.repliesTo(res)).toEqual([]);
  });

  it('matches a Slack mention by e-mail and an @e-mail handle; due dates in the user’s zone', async () => {
    await linkChannel(h, 0);
    // Real Slack ids have no underscore (the quick-add parser expects [A-Z0-9]).
    h.fake.users.set('U0CAROL', { ...h.users.carol, id: 'U0CAROL' });
    await h.slack.slashCommand(
      'add Write release notes <@U0CAROL|carol> @erin@example.com due:tomorrow',
      { userId: h.users.carol.id },
    );
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_GENERAL' && shown(c.body).includes('Write release notes'),
    );
    const task = await findTask(h, website, 'Write release notes');
    expect(task?.taskUsers?.map((u) => u.taskUserId)).toEqual([
      seedUser('Carol').id,
      seedUser('Erin').id,
    ]);
    const expected = parseDueDate('tomorrow', h.users.carol.tz);
    expect(expected.ok && task?.dueDate?.slice(0, 10)).toBe(expected.ok && expected.date);
  });

  it('gives the card in the reply when it cannot be posted in the channel', async () => {
    await linkChannel(h, 0);
    h.fake.script('chat.postMessage', () => ({ ok: false, error: 'not_in_channel' }));
    try {
      const res = await h.slack.slashCommand('add Card fallback');
      const reply = await h.replyTo(res);
      expect(reply.text).toContain('Created task *Card fallback*');
      expect(shown(reply.blocks)).toContain('Mark complete');
    } finally {
      h.fake.script('chat.postMessage', undefined);
    }
  });

  it.each([
    ['add', 'Give the task a title'],
    ['add @bob due:friday', 'Give the task a title'],
    ['add Something due:someday', '"someday" is not a date I understand'],
    ['add Something due:2026-02-30', '2026-02-30 is not a date on the calendar'],
    ['add Something p:extreme', '"p:extreme" is not a priority'],
    ['add Something @zed', 'No user of'],
    ['add Something <@U0NOBODY>', 'Could not look up <@U0NOBODY> in Slack'],
  ])('refuses `/work %s` in one sentence and creates nothing', async (command, expected) => {
    await linkChannel(h, 0);
    const before = await taskCount(website);
    const text = await replyText(command);
    expect(text).toContain(expected);
    expect(text).toMatch(/[Nn]othing was created/);
    expect(await taskCount(website)).toBe(before);
  });

  it('names a Slack user who has no account in the service', async () => {
    await linkChannel(h, 0);
    h.fake.users.set('U0FRANK', { id: 'U0FRANK', name: 'frank', email: 'frank@example.com' });
    const before = await taskCount(website);
    const text = await replyText('add Something <@U0FRANK>');
    expect(text).toMatch(
      /^<@U0FRANK> \(frank@example\.com\) is not a user of \*.+\*, so nothing was created\.$/,
    );
    expect(await taskCount(website)).toBe(before);
  });

  it('says how to link a project when the channel has none', async () => {
    const text = await replyText('add Orphan task');
    expect(text).toBe(
      'This channel has no default project, so use `/work new` to choose a project in a form, or name it with `in:`, like `/work add Fix the login page in:"Website relaunch"`, or link one with `/work project link <project>`.',
    );
  });

  it('shows the service’s own refusal verbatim', async () => {
    const { projectId } = await h.work.createProject({ projectName: 'No priorities' });
    await h.work.updateProject(projectId, { priority: false });
    await h.worklink.store.channelProjects.link(h.teamId, 'C_PLAIN', projectId, 'U_ALICE');
    const text = await replyText('add Urgent thing p:urgent', h.users.alice.id, 'C_PLAIN');
    expect(text).toBe(
      'Could not create the task: priority: the priority feature is off for this project. Nothing was changed.',
    );
    expect(await taskCount(projectId)).toBe(0);
  });

  it('says so when the channel’s project no longer exists', async () => {
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_STALE',
      'ffffffffffffffffffffffff',
      'U_ALICE',
    );
    const text = await replyText('add Lost task', h.users.alice.id, 'C_STALE');
    expect(text).toContain(
      'Could not load this channel’s project: there is no project `ffffffffffffffffffffffff`',
    );
  });
});

describe('/work list', () => {
  it('lists the open tasks of the channel’s project with status, due date and assignees', async () => {
    await linkChannel(h, 1);
    const res = await h.slack.slashCommand('list');
    const reply = await h.replyTo(res);
    const text = shown(reply.blocks);
    expect(reply.text).toContain('Open tasks in Customer onboarding');
    expect(text).toContain('Kick-off call with Globex');
    expect(text).toContain('Import customer data');
    expect(text).toContain('Tue, Feb 3, 2026');
    expect(text).toContain('Alice Adams, Erin Evans');
    expect(text).toContain('task_row_menu');
    expect(text).toContain('"url":"http');
  });

  it('takes a filter and a project id in either order', async () => {
    const id = (await h.work.listTasks({ projectId: onboarding }))[1]!.taskId;
    await h.work.updateTask(id, {
      projectId: onboarding,
      statusId: (await statusesOf(h, onboarding)).find((s) => s.Type === STATUS_TYPE.done)!._id,
    });
    const res = await h.slack.slashCommand(`list ${onboarding} done`);
    const reply = await h.replyTo(res);
    expect(reply.text).toContain('Done tasks in Customer onboarding (1–1 of 1)');
    expect(shown(reply.blocks)).toContain('✅');
  });

  it('says so when the channel has no project and none is named', async () => {
    const text = await replyText('list all');
    expect(text).toBe(
      'This channel has no default project, so name one: `/work list open <project>`, or link one with `/work project link <project>`.',
    );
  });

  it('refuses an unknown word and an unknown project', async () => {
    expect(await replyText('list someday')).toContain('No project called “someday” is known here.');
    expect(await replyText('list open ffffffffffffffffffffffff')).toContain(
      'there is no project `ffffffffffffffffffffffff`',
    );
  });
});

describe('/work task', () => {
  it('shows the card: name, project, group, status, assignees, due date, priority, estimate', async () => {
    const id = (await h.work.listTasks({ projectId: website }))[0]!.taskId; // Draft the sitemap
    const res = await h.slack.slashCommand(`task ${id}`);
    const reply = await h.replyTo(res);
    const card = shown(reply.blocks);
    for (const part of [
      '*Draft the sitemap*',
      'Website relaunch',
      'Design',
      '*Status*\\nOpen',
      '<@U_BOB>',
      'Sun, Feb 15, 2026',
      'High',
      '6 h',
      'Comment',
      'Edit',
      'Mark complete',
    ]) {
      expect(card).toContain(part);
    }
    expect(reply.response_type).toBe('ephemeral');
  });

  it.each([
    ['task', 'Name the task by words of its name, `#12`'],
    ['task abc', 'No task matches “abc”. Create it with `/work new abc`.'],
    ['task &lt;taskId&gt;', 'No task matches “&lt;taskId&gt;”.'],
    ['task ffffffffffffffffffffffff', 'there is no task `ffffffffffffffffffffffff`'],
  ])('`/work %s` answers one helpful sentence', async (command, expected) => {
    expect(await replyText(command)).toContain(expected);
  });
});

describe('/work done', () => {
  it('sets the project’s first done status, then says it was already done without a call', async () => {
    const created = await h.work.createTask({ projectId: website, name: 'Finish me' });
    const text = await replyText(`done ${created.taskId}`);
    expect(text).toBe('Marked *Finish me* complete (status *Done*).');
    const { updated } = await serviceView(h, created.taskId);
    const done = (await statusesOf(h, website))
      .filter((s) => s.Type === STATUS_TYPE.done)
      .sort((a, b) => (a.Index ?? 0) - (b.Index ?? 0))[0]!;
    expect(updated.StatusId).toBe(done._id);
    expect(updated.Status).toBe(true);

    const client = h.worklink.deps.workClients.for(
      (await h.worklink.store.connections.get(h.teamId))!,
    );
    const spy = vi.spyOn(client, 'updateTask');
    try {
      expect(await replyText(`done ${created.taskId}`)).toBe(
        '*Finish me* is already done; nothing was changed.',
      );
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it.each([
    ['done', 'Name the task by words of its name, `#12`'],
    ['done 12345', 'No open task matches “12345”.'],
    ['done ffffffffffffffffffffffff', 'there is no task `ffffffffffffffffffffffff`'],
  ])('`/work %s` answers one helpful sentence', async (command, expected) => {
    expect(await replyText(command)).toContain(expected);
  });
});

describe('/work comment', () => {
  async function comments(taskId: string) {
    const { updated } = await serviceView(h, taskId);
    return (updated.Comments ?? []).filter((c) => c.Type === 1).map((c) => c.Comment);
  }

  it('names its Slack author on every comment, the key’s owner too', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Discuss me' });
    expect(await replyText(`comment ${taskId} Looks good`)).toBe(
      'Added your comment to *Discuss me*.',
    );
    expect(await replyText(`comment ${taskId} Ship it\nplease`, h.users.bob.id)).toBe(
      'Added your comment to *Discuss me*.',
    );
    expect(await comments(taskId)).toEqual([
      'Looks good\n\n— Alice Adams (via Slack)',
      'Ship it\nplease\n\n— Bob Brown (via Slack)',
    ]);
  });

  it('stores what was typed, not Slack’s escaping or markup', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Escapes' });
    // Slack escapes a typed "R&D <beta>" and sends a mention as <@U…|name>.
    await replyText(`comment ${taskId} R&amp;D &lt;beta&gt; for <@U0BOB|bob>`);
    expect(await comments(taskId)).toEqual(['R&D <beta> for @bob\n\n— Alice Adams (via Slack)']);
  });

  it.each([
    ['comment', 'Name the task by words of its name, `#12`'],
    ['comment short text', 'Put a colon between the task and the comment'],
    ['comment ffffffffffffffffffffffff hello', 'there is no task `ffffffffffffffffffffffff`'],
  ])('`/work %s` answers one helpful sentence', async (command, expected) => {
    expect(await replyText(command)).toContain(expected);
  });

  it('asks for the text when it is empty', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Silent' });
    expect(await replyText(`comment ${taskId}   `)).toBe(
      'Write the comment after the task, like `/work comment #12 Looks good to me`. Nothing was posted.',
    );
    expect(await comments(taskId)).toEqual([]);
  });
});

describe('/work new', () => {
  it('opens a loading view with the trigger at once, then the form with the title', async () => {
    await linkChannel(h, 0);
    const res = await h.slack.slashCommand('new Plan the offsite');
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    expect(viewOf(open).callback_id).toBe(VIEW.loading);
    const openedId = (await answeredView(h, open)).id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === openedId);
    const form = viewOf(update);
    expect(form.callback_id).toBe(VIEW.taskCreate);
    expect(inputWith(form, 'task_name_input')?.element?.initial_value).toBe('Plan the offsite');
    expect(inputWith(form, 'task_form_project')?.element?.initial_option?.value).toBe(website);
    expect(h.fake.timeline.indexOf('done views.open')).toBeLessThan(
      h.fake.timeline.indexOf('call views.update'),
    );
  });

  it('prefills the title as typed, not as Slack escaped it', async () => {
    const res = await h.slack.slashCommand('new Plan the Q&amp;A &lt;draft&gt; with <@U0BOB1|bob>');
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    const openedId = (await answeredView(h, open)).id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === openedId);
    expect(inputWith(viewOf(update), 'task_name_input')?.element?.initial_value).toBe(
      'Plan the Q&A <draft> with @bob',
    );
  });

  it('says so when Slack refuses the trigger', async () => {
    h.fake.script('views.open', () => ({ ok: false, error: 'expired_trigger_id' }));
    try {
      expect(await replyText('new')).toBe(
        'Could not open the task form (expired_trigger_id). Please try again, or create it in one step with `/work add <title>`.',
      );
    } finally {
      h.fake.script('views.open', undefined);
    }
  });
});

describe('help', () => {
  it('lists every task command with an example', async () => {
    const res = await h.slack.slashCommand('help all');
    const reply = await h.replyTo(res);
    for (const usage of [
      'new [title]',
      'add <title> [@user…] [due:<date>] [p:<priority>]',
      'list [open|done|all] [project]',
      'task <task>',
      'edit <task>',
      'done <task>',
      'comment <task>: <text>',
      'assign <task> @person…',
    ]) {
      expect(reply.text).toContain(`/work ${usage}`);
    }
    expect(shown(reply.blocks)).toContain(
      'e.g. `/work add Fix the login page @bob due:next week p:high`',
    );
  });
});
