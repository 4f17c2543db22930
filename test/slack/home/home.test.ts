/**
 * App Home: app_home_opened publishes the person's Home (connection, linked channels, known
 * projects, the commands from the router); its buttons open the project form and cards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workSubcommands } from '../../../src/slack/app.js';
import { WorkRouter } from '../../../src/slack/commands/router.js';
import { ACTION, VIEW } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());

/** Opens the Home tab as `user` and returns the published view's blocks as text. */
async function openHome(user: string, tab = 'home') {
  const before = h.fake.callsOf('views.publish').length;
  const res = await h.slack.event({ type: 'app_home_opened', user, tab, channel: 'D_HOME' });
  expect(res.status).toBe(200);
  const call = await h.waitFor(() => h.fake.callsOf('views.publish').slice(before)[0]);
  expect(call.body.user_id).toBe(user);
  const view = call.body.view as { type: string; blocks: unknown[] };
  expect(view.type).toBe('home');
  expect(view.blocks.length).toBeLessThanOrEqual(100);
  return JSON.stringify(view.blocks);
}

describe('before connecting', () => {
  it('says how to connect and offers no buttons', async () => {
    const shown = await openHome(h.users.bob.id);
    expect(shown).toContain('Worklink is *not connected*');
    expect(shown).toContain('`/work connect`');
    expect(shown).not.toContain(ACTION.homeNewProject);
    expect(shown).toContain('No channel has a default project yet.');
  });
});

describe('connected', () => {
  beforeAll(async () => {
    await h.connect();
    const website = h.seed.projects[0].projectId;
    await h.slack.slashCommand(`project link ${website}`, { channelId: 'C_DESIGN' });
    // The change is announced in the channel.
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_DESIGN' && String(c.body.text).includes('default project'),
    );
  });

  it('shows an admin the connection, the linked channel, known projects and every command', async () => {
    const shown = await openHome(h.users.alice.id);
    expect(shown).toContain(`Connected to *${h.seed.workspaceName}* by <@${h.users.alice.id}>`);
    // Alice reads the moment in her own zone (America/New_York).
    expect(shown).toMatch(/[EG]MT-|[EP][SD]T/);
    expect(shown).toContain(
      `<#C_DESIGN> → *Website relaunch*  \`${h.seed.projects[0].projectId}\``,
    );
    expect(shown).toContain(`"value":"${h.seed.projects[0].projectId}"`);
    expect(shown).toContain(ACTION.homeNewProject);
    expect(shown).toContain(ACTION.homeNewTask);
    for (const sub of new WorkRouter(workSubcommands()).visible()) {
      expect(shown).toContain(`\`/work ${sub.usage}\``);
    }
  });

  it('is personal: a non-admin sees their own tasks, no connection details, no admin commands', async () => {
    await h.worklink.deps.indexRefresh.runTeam(h.teamId);
    const shown = await openHome(h.users.carol.id);
    expect(shown).toContain(`Connected to *${h.seed.workspaceName}*.`);
    expect(shown).not.toContain('by <@');
    for (const sub of new WorkRouter(workSubcommands()).visible()) {
      if (sub.adminOnly) expect(shown).not.toContain(`\`/work ${sub.usage}\``);
      else expect(shown).toContain(`\`/work ${sub.usage}\``);
    }
    expect(shown.indexOf('*My tasks*')).toBeLessThan(
      shown.indexOf('*Channels linked to projects*'),
    );
    // Carol is on "Design the home page" (due 2026-03-01, long past): overdue, with buttons.
    expect(shown).toContain('#2 *Design the home page* · Website relaunch · :warning: overdue');
    expect(shown).toContain(ACTION.homeTaskComplete);
    expect(shown).not.toContain('Draft the sitemap'); // Bob's alone
    expect(await openHome(h.users.bob.id)).toContain('Draft the sitemap');
  });

  it('Mark complete on My tasks completes the task and publishes Home again without it', async () => {
    const task = h.worklink.store.taskIndex.search(h.teamId, 'design home page')[0]!;
    const before = h.fake.callsOf('views.publish').length;
    const res = await h.slack.blockAction(
      { actionId: ACTION.homeTaskComplete, value: task.taskId },
      { userId: h.users.carol.id, view: { id: 'V_HOME', type: 'home', callback_id: '' } },
    );
    expect(res.status).toBe(200);
    const call = await h.waitFor(() => h.fake.callsOf('views.publish').slice(before)[0]);
    expect(JSON.stringify(call.body.view)).not.toContain('Design the home page');
    expect((await h.work.getTask(task.taskId)).status).toBe(true);
  });

  it('opens a project card from the Home tab in a DM', async () => {
    const onboarding = h.seed.projects[1].projectId;
    await h.replyTo(await h.slack.slashCommand(`project ${onboarding}`));
    expect(await openHome(h.users.dan.id)).toContain('Customer onboarding');
    const res = await h.slack.blockAction(
      { actionId: ACTION.projectOpen, value: onboarding },
      { userId: h.users.dan.id, view: { id: 'V_HOME', type: 'home', callback_id: '' } },
    );
    expect(res.status).toBe(200);
    const dm = await h.fake.waitForCall(
      'chat.postMessage',
      (c) =>
        c.body.channel === h.users.dan.id && String(c.body.text).includes('Customer onboarding'),
    );
    expect(JSON.stringify(dm.body.blocks)).toContain('Backlog, This week');
  });

  it('opens the new-project form from the Home tab', async () => {
    const res = await h.slack.blockAction(
      { actionId: ACTION.homeNewProject },
      { view: { id: 'V_HOME', type: 'home', callback_id: '' } },
    );
    const open = await h.fake.waitForCall(
      'views.open',
      (c) => c.body.trigger_id === res.triggerId && c.reply !== undefined,
    );
    const viewId = (open.reply as { view: { id: string } }).view.id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === viewId);
    const view = update.body.view as { callback_id: string; blocks: unknown[] };
    expect(view.callback_id).toBe(VIEW.projectCreate);
    // No channel here, so no "Use as this channel's project".
    expect(JSON.stringify(view.blocks)).not.toContain('this channel’s project');
  });

  it('opens the tasks feature’s create form from "New task"', async () => {
    const res = await h.slack.blockAction(
      { actionId: ACTION.homeNewTask },
      { view: { id: 'V_HOME', type: 'home', callback_id: '' } },
    );
    expect(res.status).toBe(200);
    const open = await h.fake.waitForCall(
      'views.open',
      (c) => c.body.trigger_id === res.triggerId && c.reply !== undefined,
    );
    const viewId = (open.reply as { view: { id: string } }).view.id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === viewId);
    expect((update.body.view as { callback_id?: string }).callback_id).toBe(VIEW.taskCreate);
  });
});
