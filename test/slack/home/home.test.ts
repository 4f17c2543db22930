/**
 * App Home, through the sandbox (src/sandbox): Slack's Web API with its checks, signed
 * delivery and triggers of its own, in front of the real app and the embedded service.
 * app_home_opened publishes the person's Home (connection, linked channels, known projects,
 * the router's commands); its buttons open the forms and the project card.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { launchSandbox, type SandboxStack } from '../../../src/sandbox/start.js';
import type { SlackView } from '../../../src/sandbox/state.js';
import { workSubcommands } from '../../../src/slack/app.js';
import { WorkRouter } from '../../../src/slack/commands/router.js';
import { ACTION, VIEW } from '../../../src/slack/ui/block-ids.js';
import { waitFor } from '../../sandbox/helpers.js';

const DAN = 'U0SBDAN'; // Asia/Tokyo
const BOB = 'U0SBBOB';

let stack: SandboxStack;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'worklink-home-'));
  stack = await launchSandbox(
    { slack: { mode: 'sandbox' }, port: 0, dataDir, logLevel: 'error' },
    { logger: createLogger('error', () => {}) },
  );
});
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const state = () => stack.sandbox.state;
const projectId = (name: string) =>
  stack.setup.seed?.projects.find((p) => p.projectName === name)?.projectId ?? '';

/** Opens the Home tab as `userId` and waits for the view the app publishes for it. */
async function openHome(userId: string): Promise<SlackView> {
  const shownBefore = state().homeViews.get(userId);
  const hashBefore = shownBefore ? state().views.get(shownBefore)?.view.hash : undefined;
  const opened = await stack.sandbox.interactions.openHome({ userId, tab: 'home' });
  expect(opened.ok).toBe(true);
  return waitFor(() => {
    const id = state().homeViews.get(userId);
    const view = id ? state().views.get(id)?.view : undefined;
    return view && view.hash !== hashBefore ? view : undefined;
  }, `the Home tab of ${userId}`);
}

/** Presses a button of a view, found by its action_id (and value). */
async function press(userId: string, view: SlackView, actionId: string, value?: string) {
  const block = view.blocks.find((b) => JSON.stringify(b).includes(`"action_id":"${actionId}"`));
  expect(block, `a block with ${actionId}`).toBeDefined();
  const result = await stack.sandbox.interactions.blockAction({
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
  it('shows the connection, the linked channels, known projects and every command', async () => {
    const home = await openHome(DAN);
    const shown = JSON.stringify(home.blocks);
    const workspace = stack.setup.seed?.workspaceName ?? '';
    expect(shown).toContain(`Connected to *${workspace}* by <@U0SBALICE>`);
    // Dan reads the moment in his own zone (Asia/Tokyo).
    expect(shown).toMatch(/GMT\+9/);
    const website = projectId('Website relaunch');
    expect(shown).toContain(`<#C0SBWEBSITE> → *Website relaunch*  \`${website}\``);
    expect(shown).toContain(`"value":"${website}"`);
    expect(shown).toContain(ACTION.homeNewProject);
    expect(shown).toContain(ACTION.homeNewTask);
    for (const sub of new WorkRouter(workSubcommands()).visible()) {
      expect(shown).toContain(`\`/work ${sub.usage}\``);
    }
  });

  it('opens a project card from the Home tab in a DM', async () => {
    const onboarding = projectId('Customer onboarding');
    await press(DAN, await openHome(DAN), ACTION.projectOpen, onboarding);
    const im = state().imFor(DAN)?.id ?? '';
    const card = await waitFor(
      () => (state().messages.get(im) ?? []).find((m) => m.text.includes('Customer onboarding')),
      'the project card in Dan’s DM',
    );
    expect(JSON.stringify(card.blocks)).toContain(onboarding);
  });

  it('opens the new-project form from the Home tab', async () => {
    await press(DAN, await openHome(DAN), ACTION.homeNewProject);
    const form = await modalShowing(DAN, VIEW.projectCreate);
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
    stack.worklink.store.forgetTeam(stack.teamId);
    const shown = JSON.stringify((await openHome(BOB)).blocks);
    expect(shown).toContain('Worklink is *not connected*');
    expect(shown).toContain('`/work connect`');
    expect(shown).not.toContain(ACTION.homeNewProject);
    expect(shown).toContain('No channel has a default project yet.');
  });
});
