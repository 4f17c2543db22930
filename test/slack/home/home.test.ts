/**
 * App Home, through the sandbox (src/sandbox): Slack's Web API with its checks, signed
 * delivery and triggers of its own, in front of the real app and the embedded service.
 * app_home_opened publishes the person's Home (connection, linked channels, known projects,
 * the router's commands); its buttons open the forms and the project card.
 */

import { describe, expect, it } from 'vitest';
import { firstHourSeed } from '../../../src/sandbox/first-hour.js';
import type { SlackView } from '../../../src/sandbox/records.js';
import { workSubcommands } from '../../../src/slack/app.js';
import { WorkRouter } from '../../../src/slack/commands/router.js';
import { dateIn } from '../../../src/slack/tasks/mine/due-groups.js';
import { ACTION, VIEW } from '../../../src/slack/ui/block-ids.js';
import { waitFor } from '../../sandbox/helpers.js';
import { useSandboxStack } from '../../support/sandbox-stack.js';

const ALICE = 'U0SBALICE'; // the owner; America/New_York
const BOB = 'U0SBBOB';
const CAROL = 'U0SBCAROL';
const DAN = 'U0SBDAN';

const stack = useSandboxStack('worklink-home-');

const state = () => stack().sandbox.state;
const projectId = (name: string) =>
  stack().setup.seed?.projects.find((p) => p.projectName === name)?.projectId ?? '';

/** Opens the Home tab as `userId` and waits for the view the app publishes for it. */
async function openHome(userId: string): Promise<SlackView> {
  const shownBefore = state().homeViews.get(userId);
  const hashBefore = shownBefore ? state().views.get(shownBefore)?.view.hash : undefined;
  const opened = await stack().sandbox.interactions.openHome({ userId, tab: 'home' });
  expect(opened.ok).toBe(true);
  return waitFor(() => {
    const id = state().homeViews.get(userId);
    const view = id ? state().views.get(id)?.view : undefined;
    return view && view.hash !== hashBefore ? view : undefined;
  }, `the Home tab of ${userId}`);
}

/** Presses a button of a view, found by its action_id (and value). */
async function press(userId: string, view: SlackView, actionId: string, value?: string) {
  const block = view.blocks.find((b) => {
    const text = JSON.stringify(b);
    return (
      text.includes(`"action_id":"${actionId}"`) &&
      (value === undefined || text.includes(`"value":"${value}"`))
    );
  });
  expect(block, `a block with ${actionId}`).toBeDefined();
  const result = await stack().sandbox.interactions.blockAction({
    userId,
    container: { type: 'view', viewId: view.id },
    blockId: String(block?.block_id),
    actionId,
    value,
  });
  expect(result.ok).toBe(true);
}

/** The modal on top of `userId`'s stack once it shows `callbackId`. */
function modalShowing(userId: string, callbackId: string): Promise<SlackView> {
  return waitFor(() => {
    const top = state().modalStacks.get(userId)?.at(-1);
    const view = top ? state().views.get(top)?.view : undefined;
    return view?.callback_id === callbackId ? view : undefined;
  }, `a ${callbackId} modal for ${userId}`);
}

describe('connected', () => {
  it('shows an admin the connection, the linked channels, known projects and every command', async () => {
    const shown = JSON.stringify((await openHome(ALICE)).blocks);
    const workspace = stack().setup.seed?.workspaceName ?? '';
    expect(shown).toContain(`Connected to *${workspace}* by <@${ALICE}>`);
    // Alice reads the moment in her own zone (America/New_York).
    expect(shown).toMatch(/[EG]MT-|[EP][SD]T/);
    const website = projectId('Website relaunch');
    expect(shown).toContain(`<#C0SBWEBSITE> → *Website relaunch*  \`${website}\``);
    expect(shown).toContain(`"value":"${website}"`);
    expect(shown).toContain(ACTION.homeNewProject);
    expect(shown).toContain(ACTION.homeNewTask);
    for (const sub of new WorkRouter(workSubcommands()).visible()) {
      expect(shown).toContain(`\`/work ${sub.usage}\``);
    }
  });

  it('is personal: a non-admin sees their own tasks, no connection details, no admin commands', async () => {
    await stack().worklink.parts.indexRefresh.runTeam(stack().teamId);
    const shown = JSON.stringify((await openHome(CAROL)).blocks);
    expect(shown).toContain(`Connected to *${stack().setup.seed?.workspaceName}*.`);
    expect(shown).not.toContain('by <@');
    for (const sub of new WorkRouter(workSubcommands()).visible()) {
      if (sub.adminOnly) expect(shown).not.toContain(`\`/work ${sub.usage}\``);
      else expect(shown).toContain(`\`/work ${sub.usage}\``);
    }
    expect(shown.indexOf('*My tasks*')).toBeLessThan(
      shown.indexOf('*Channels linked to projects*'),
    );
    // Carol is on "Design the home page", seeded due today as the demo admin (New York) sees it
    // (src/sandbox/first-hour.ts); Carol reads it in Los Angeles, where for three hours after
    // New York's midnight it is still the day before, and the task is due her tomorrow.
    if (dateIn('America/Los_Angeles', Date.now()) === firstHourSeed().today) {
      expect(shown).toContain('*Due today*');
    }
    expect(shown).toContain('#2 *Design the home page* · Website relaunch · due ');
    expect(shown).toContain(ACTION.homeTaskMenu);
    expect(shown).not.toContain('Draft the sitemap'); // Bob's alone
    expect(JSON.stringify((await openHome(BOB)).blocks)).toContain('Draft the sitemap');
  });

  it('Mark complete in a My tasks row’s menu completes the task and publishes Home again without it', async () => {
    const task = (
      await stack().worklink.store.taskIndex.search(stack().teamId, 'design home page')
    )[0];
    expect(task).toBeDefined();
    const home = await openHome(CAROL);
    const hash = home.hash;
    await press(CAROL, home, ACTION.homeTaskMenu, `complete:${task?.taskId}`);
    const again = await waitFor(() => {
      const view = state().views.get(home.id)?.view;
      return view && view.hash !== hash ? view : undefined;
    }, 'Carol’s Home published again');
    expect(JSON.stringify(again.blocks)).not.toContain('Design the home page');
    const connection = await stack().worklink.store.connections.get(stack().teamId);
    const work = connection ? stack().worklink.deps.workClients.for(connection) : undefined;
    expect((await work?.getTask(task?.taskId ?? ''))?.status).toBe(true);
  });

  it('opens a project card from the Home tab in a DM', async () => {
    const onboarding = projectId('Customer onboarding');
    await press(DAN, await openHome(DAN), ACTION.projectOpen, onboarding);
    const im = state().imFor(DAN)?.id ?? '';
    const card = await waitFor(
      () => (state().messages.get(im) ?? []).find((m) => m.text.includes('Customer onboarding')),
      'the project card in Dan’s DM',
    );
    expect(JSON.stringify(card.blocks)).toContain('Backlog, This week');
  });

  it('opens the new-project form from the Home tab', async () => {
    await press(ALICE, await openHome(ALICE), ACTION.homeNewProject);
    const form = await modalShowing(ALICE, VIEW.projectCreate);
    // No channel here, so no "Use as this channel's project".
    expect(JSON.stringify(form.blocks)).not.toContain('this channel’s project');
  });

  it('opens the tasks feature’s create form from "New task"', async () => {
    await press(BOB, await openHome(BOB), ACTION.homeNewTask);
    await modalShowing(BOB, VIEW.taskCreate);
  });
});

describe('before connecting', () => {
  it('says how to connect and offers no buttons', async () => {
    await stack().worklink.store.forgetTeam(stack().teamId);
    const shown = JSON.stringify((await openHome(BOB)).blocks);
    expect(shown).toContain('Worklink is *not connected*');
    expect(shown).toContain('`/work connect`');
    expect(shown).not.toContain(ACTION.homeNewProject);
    expect(shown).toContain('No channel you are in has a default project yet.');
  });
});
