// The sandbox page in a real browser (Debian's Chromium through playwright-core), against a tiny
// Bolt app: a slash command answered with Block Kit, a button, a modal with every input type,
// validation errors under their field, a valid submission, type-ahead menus (external_select)
// answered through block_suggestion, and the App Home tab.

import { mkdir } from 'node:fs/promises';
import type { BlockAction, ViewSubmitAction } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { BOT_TOKEN, startTestSandbox, startTinyApp, type TinyApp, waitFor } from './helpers.js';

const option = (text: string, value: string) => ({
  text: { type: 'plain_text' as const, text },
  value,
});
const input = (
  block_id: string,
  label: string,
  element: Record<string, unknown>,
  optional = true,
) => ({
  type: 'input',
  block_id,
  optional,
  label: { type: 'plain_text', text: label },
  element: { action_id: 'value', ...element },
});

const allInputs = {
  type: 'modal' as const,
  callback_id: 'all_inputs',
  title: { type: 'plain_text' as const, text: 'All inputs' },
  submit: { type: 'plain_text' as const, text: 'Create' },
  close: { type: 'plain_text' as const, text: 'Cancel' },
  blocks: [
    { type: 'section', text: { type: 'mrkdwn', text: 'Fill in *every* field.' } },
    input('title', 'Title', { type: 'plain_text_input' }, false),
    input('description', 'Description', { type: 'plain_text_input', multiline: true }),
    input('estimate', 'Estimate (hours)', { type: 'number_input', is_decimal_allowed: true }),
    input('due', 'Due date', { type: 'datepicker' }),
    input('priority', 'Priority', {
      type: 'static_select',
      options: [option('Urgent', '1'), option('High', '2'), option('Low', '4')],
    }),
    input('labels', 'Labels', {
      type: 'multi_static_select',
      options: [option('Design', 'design'), option('Backend', 'backend'), option('Copy', 'copy')],
    }),
    input('owner', 'Owner', { type: 'users_select' }),
    input('assignees', 'Assignees', { type: 'multi_users_select' }),
    input('flags', 'Flags', {
      type: 'checkboxes',
      options: [option('Billable', 'billable'), option('Blocked', 'blocked')],
    }),
    input('notify', 'Notify by', {
      type: 'radio_buttons',
      options: [option('DM', 'dm'), option('Email', 'email')],
    }),
    input('attachment', 'Attachment', { type: 'file_input' }),
    { type: 'context', elements: [{ type: 'mrkdwn', text: 'Due dates are calendar dates.' }] },
  ],
};

/** A modal whose group list depends on the project chosen (dispatch_action + views.update). */
const projectModal = (groups: ReturnType<typeof option>[]) => ({
  type: 'modal' as const,
  callback_id: 'project_modal',
  title: { type: 'plain_text' as const, text: 'Pick a project' },
  submit: { type: 'plain_text' as const, text: 'Save' },
  blocks: [
    input('name', 'Task name', { type: 'plain_text_input' }, false),
    {
      type: 'input',
      block_id: 'project',
      dispatch_action: true,
      label: { type: 'plain_text', text: 'Project' },
      element: {
        type: 'static_select',
        action_id: 'pick_project',
        options: [option('Website', 'Website'), option('Onboarding', 'Onboarding')],
      },
    },
    ...(groups.length > 0
      ? [input('group', 'Group', { type: 'static_select', options: groups })]
      : []),
  ],
});

/** A modal with type-ahead menus (external_select); `chosen` is shown after block_actions. */
const menuModal = (chosen?: string) => ({
  type: 'modal' as const,
  callback_id: 'menu_modal',
  title: { type: 'plain_text' as const, text: 'Choose a task' },
  submit: { type: 'plain_text' as const, text: 'Save' },
  blocks: [
    {
      type: 'input',
      block_id: 'task',
      dispatch_action: true,
      label: { type: 'plain_text', text: 'Task' },
      element: {
        type: 'external_select',
        action_id: 'pick_task',
        min_query_length: 2,
        placeholder: { type: 'plain_text', text: 'Words of its name' },
      },
    },
    input('parent', 'Parent', {
      type: 'external_select',
      action_id: 'pick_task',
      initial_option: option('#1 Plan the launch', 't1'),
    }),
    input('related', 'Related', {
      type: 'multi_external_select',
      action_id: 'pick_task',
      min_query_length: 2,
      initial_options: [option('#1 Plan the launch', 't1')],
    }),
    ...(chosen
      ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: `Chosen: ${chosen}` }] }]
      : []),
  ],
});
const MENU_GROUPS = [
  {
    label: 'Website',
    options: [option('#12 Fix login page', 't12'), option('#14 Fix footer', 't14')],
  },
  { label: 'Onboarding', options: [option('#3 Fix welcome mail', 't3')] },
];
const menuActions: BlockAction[] = [];

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let tiny: TinyApp;
let browser: Browser;
let page: Page;
const submissions: ViewSubmitAction['view']['state']['values'][] = [];
/** Message events the app got (the test surface subscribes to message.channels). */
const messageEvents: Record<string, unknown>[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  tiny = await startTinyApp(sandbox, (app) => {
    app.command('/work', async ({ command, ack, client }) => {
      if (command.text === 'hello') {
        await ack({
          text: 'Hello',
          blocks: [
            { type: 'header', text: { type: 'plain_text', text: 'Website relaunch' } },
            {
              type: 'section',
              text: {
                type: 'mrkdwn',
                text: `Hello <@${command.user_id}>, see <https://example.com/brief|*the brief*>`,
              },
              fields: [
                { type: 'mrkdwn', text: '*Due*\n2026-11-25' },
                { type: 'mrkdwn', text: '*Priority*\nHigh' },
              ],
              accessory: {
                type: 'overflow',
                action_id: 'more',
                options: [option('Open in browser', 'open'), option('Snooze', 'snooze')],
              },
            },
            { type: 'divider' },
            {
              type: 'actions',
              block_id: 'greet',
              elements: [
                {
                  type: 'button',
                  action_id: 'wave',
                  style: 'primary',
                  value: 'w',
                  text: { type: 'plain_text', text: 'Wave' },
                },
                {
                  type: 'static_select',
                  action_id: 'status',
                  placeholder: { type: 'plain_text', text: 'Status' },
                  options: [option('Done', 'done')],
                },
              ],
            },
            {
              type: 'image',
              image_url: 'https://example.com/chart.png',
              alt_text: 'Burn-down chart',
            },
            { type: 'context', elements: [{ type: 'mrkdwn', text: '`task-7` in _Website_' }] },
          ],
        });
      } else if (command.text === 'project') {
        await ack();
        await client.views.open({ trigger_id: command.trigger_id, view: projectModal([]) });
      } else if (command.text === 'menu') {
        await ack();
        await client.views.open({ trigger_id: command.trigger_id, view: menuModal() });
      } else if (command.text === 'modal') {
        await ack();
        await client.views.open({ trigger_id: command.trigger_id, view: allInputs });
      } else {
        await ack('Try `/work hello`');
      }
    });
    app.action<BlockAction>('wave', async ({ ack, body, respond }) => {
      await ack();
      await respond({ replace_original: true, text: `Waved by <@${body.user.id}>` });
    });
    app.action<BlockAction>('pick_project', async ({ ack, body, client }) => {
      await ack();
      const chosen = body.view?.state.values.project?.pick_project?.selected_option?.value ?? '';
      await client.views.update({
        view_id: body.view?.id ?? '',
        hash: body.view?.hash,
        view: projectModal([option(`${chosen} backlog`, 'g1'), option(`${chosen} sprint`, 'g2')]),
      });
    });
    app.options('pick_task', async ({ ack, body }) => {
      const typed = body.value.toLowerCase();
      await ack({
        option_groups: MENU_GROUPS.map((g) => ({
          label: { type: 'plain_text' as const, text: g.label },
          options: g.options.filter((o) => o.text.text.toLowerCase().includes(typed)),
        })).filter((g) => g.options.length > 0),
      });
    });
    app.action<BlockAction>('pick_task', async ({ ack, body, client }) => {
      await ack();
      menuActions.push(body);
      const picked = body.actions[0];
      const text = picked?.type === 'external_select' ? picked.selected_option?.text.text : '';
      await client.views.update({
        view_id: body.view?.id ?? '',
        hash: body.view?.hash,
        view: menuModal(text),
      });
    });
    app.view<ViewSubmitAction>('menu_modal', async ({ ack, view }) => {
      submissions.push(view.state.values);
      await ack();
    });
    app.shortcut('task_from_message', async ({ ack, shortcut, respond }) => {
      await ack();
      if (shortcut.type === 'message_action')
        await respond({ text: `Task from: ${shortcut.message.text}` });
    });
    app.shortcut('new_task', async ({ ack, shortcut, client }) => {
      await ack();
      await client.views.open({ trigger_id: shortcut.trigger_id, view: allInputs });
    });
    app.view<ViewSubmitAction>('all_inputs', async ({ ack, view }) => {
      submissions.push(view.state.values);
      if (view.state.values.title?.value?.value === 'bad') {
        await ack({ response_action: 'errors', errors: { title: 'Pick a better title' } });
      } else {
        await ack();
      }
    });
    app.event('message', async ({ event }) => {
      messageEvents.push(event as unknown as Record<string, unknown>);
    });
    app.event('app_home_opened', async ({ event, client }) => {
      if (event.tab !== 'home') return;
      const me = await client.users.info({ user: event.user });
      await client.views.publish({
        user_id: event.user,
        view: {
          type: 'home',
          blocks: [
            {
              type: 'header',
              text: { type: 'plain_text', text: `Home for ${me.user?.real_name}` },
            },
          ],
        },
      });
    });
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await mkdir('test-results', { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await tiny?.stop();
  await sandbox?.stop();
});

async function send(text: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

describe('the sandbox page', () => {
  it('runs a slash command and renders the Block Kit answer as an ephemeral message', async () => {
    await page.goto(sandbox.url);
    await page.getByRole('heading', { name: '# general' }).waitFor();
    expect(await page.getByLabel('You are').inputValue()).toBe('U0SBALICE');
    await page.getByRole('button', { name: '⚡ New task' }).waitFor();

    await send('/work hello');
    const message = page.getByRole('article', { name: 'Message from Worklink' }).last();
    await message.getByText('Only visible to you').waitFor();
    expect(await message.locator('.bk-header').textContent()).toBe('Website relaunch');
    expect(await message.locator('.mention').first().textContent()).toBe('@Alice Adams');
    const link = message.getByRole('link', { name: 'the brief' });
    expect(await link.getAttribute('href')).toBe('https://example.com/brief');
    expect(await message.locator('.bk-field').count()).toBe(2);
    expect(await message.getByRole('link', { name: /Burn-down chart/ }).getAttribute('href')).toBe(
      'https://example.com/chart.png',
    );
    expect(await message.locator('code').textContent()).toBe('task-7');
    await message.getByLabel('More actions').click();
    await message.getByRole('menuitem', { name: 'Snooze' }).waitFor();
    await message.getByLabel('More actions').click();
    await page.screenshot({ path: 'test-results/sandbox-message.png' });

    await message.getByRole('button', { name: 'Wave' }).click();
    await page.getByText('Waved by @Alice Adams').waitFor();
  });

  it('opens a modal with every input type, shows the app’s error under its field, then submits', async () => {
    await send('/work modal');
    const dialog = page.getByRole('dialog', { name: 'All inputs' });
    await dialog.waitFor();
    await dialog.getByLabel('Title').fill('bad');
    await dialog.getByLabel('Description').fill('Line one\nLine two');
    await dialog.getByLabel('Estimate (hours)').fill('2.5');
    await dialog.getByLabel('Due date').fill('2026-11-25');
    await dialog.getByLabel('Priority').selectOption('2');
    await dialog.getByLabel('Labels').selectOption(['design', 'copy']);
    await dialog.getByLabel('Owner').selectOption({ label: 'Carol Chen' });
    await dialog.getByLabel('Assignees').selectOption(['U0SBBOB', 'U0SBDAN']);
    await dialog.getByLabel('Billable').check();
    await dialog.getByLabel('Email').check();
    await dialog.getByLabel('Attachment').fill('https://example.com/files/brief.pdf');
    await dialog.getByRole('button', { name: 'Create' }).click();

    const error = dialog.locator('.bk-input[data-block-id="title"] .bk-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Pick a better title');
    expect(await dialog.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    // What the user typed survives the error.
    expect(await dialog.getByLabel('Description').inputValue()).toBe('Line one\nLine two');
    await page.screenshot({ path: 'test-results/sandbox-modal.png' });

    await dialog.getByLabel('Title').fill('Relaunch checklist');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });

    const values = submissions.at(-1) ?? {};
    expect(values.title?.value).toMatchObject({
      type: 'plain_text_input',
      value: 'Relaunch checklist',
    });
    expect(values.description?.value?.value).toBe('Line one\nLine two');
    expect(values.estimate?.value).toMatchObject({ type: 'number_input', value: '2.5' });
    expect(values.due?.value?.selected_date).toBe('2026-11-25');
    expect(values.priority?.value?.selected_option?.value).toBe('2');
    expect(values.labels?.value?.selected_options?.map((o) => o.value)).toEqual(['design', 'copy']);
    expect(values.owner?.value?.selected_user).toBe('U0SBCAROL');
    expect(values.assignees?.value?.selected_users).toEqual(['U0SBBOB', 'U0SBDAN']);
    expect(values.flags?.value?.selected_options?.map((o) => o.value)).toEqual(['billable']);
    expect(values.notify?.value?.selected_option?.value).toBe('email');
    expect(values.attachment?.value?.files?.[0]).toMatchObject({
      url_private: 'https://example.com/files/brief.pdf',
      name: 'brief.pdf',
    });
  });

  it('checks required fields in the page before anything reaches the app', async () => {
    const before = submissions.length;
    await send('/work modal');
    const dialog = page.getByRole('dialog', { name: 'All inputs' });
    await dialog.waitFor();
    await dialog.getByLabel('Estimate (hours)').fill('lots');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Please complete this required field.').waitFor();
    await dialog.getByText('Enter a number.').waitFor();
    expect(submissions.length).toBe(before);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('switches user and shows the app’s Home tab for them', async () => {
    await page.getByLabel('You are').selectOption({ label: 'Bob Brown' });
    await page.getByRole('button', { name: 'Worklink' }).click();
    await page.getByRole('tab', { name: 'Home' }).waitFor();
    await page.getByRole('heading', { name: 'Home for Bob Brown' }).waitFor();
    await waitFor(() => sandbox.state.homeViews.get('U0SBBOB'), 'Bob’s Home view');
    // Alice's ephemeral answers are not Bob's to see.
    await page.getByRole('button', { name: '# general' }).click();
    await page.getByRole('heading', { name: '# general' }).waitFor();
    expect(await page.getByText('Only visible to you').count()).toBe(0);
  });

  it('stays with the person chosen while the page was still fetching the last one’s view', async () => {
    await page.getByLabel('You are').selectOption({ label: 'Alice Adams' });
    await page.waitForFunction(() => document.body.dataset.user === 'U0SBALICE');
    // Hold the page's next snapshot request (Alice's) until Carol has been chosen.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = () => {};
    const askedForAlice = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const isState = (url: URL) => url.pathname === '/sandbox/state';
    await page.route(isState, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    sandbox.state.changed(); // the stream tells the page to fetch its view again
    await askedForAlice;
    await page.getByLabel('You are').selectOption({ label: 'Carol Chen' });
    release();
    await page.waitForFunction(() => document.body.dataset.user === 'U0SBCAROL');
    await page.unroute(isState);
    expect(await page.getByLabel('You are').inputValue()).toBe('U0SBCAROL');
  });

  it('sends block_actions for dispatch_action inputs and keeps typed values through views.update', async () => {
    await page.getByLabel('You are').selectOption({ label: 'Alice Adams' });
    await page.getByRole('heading', { name: '# general' }).waitFor();
    await send('/work project');
    const dialog = page.getByRole('dialog', { name: 'Pick a project' });
    await dialog.waitFor();
    await dialog.getByLabel('Task name').fill('Update the footer');
    await dialog.getByLabel('Project').selectOption('Onboarding');
    const group = dialog.getByLabel('Group');
    await group.waitFor();
    expect(await group.locator('option').allTextContents()).toContain('Onboarding sprint');
    expect(await dialog.getByLabel('Task name').inputValue()).toBe('Update the footer');
    expect(await dialog.getByLabel('Project').inputValue()).toBe('Onboarding');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('offers external selects as type-aheads: groups, keys, dispatch_action, chips, whole options', async () => {
    await send('/work menu');
    const dialog = page.getByRole('dialog', { name: 'Choose a task' });
    const task = dialog.getByRole('combobox', { name: 'Task' });
    await task.waitFor();
    expect(await task.getAttribute('placeholder')).toBe('Words of its name');
    // The initial option shows as chosen text.
    expect(await dialog.getByRole('combobox', { name: 'Parent' }).inputValue()).toBe(
      '#1 Plan the launch',
    );
    // Below min_query_length nothing is asked.
    await task.pressSequentially('f');
    await dialog.getByText('Type at least 2 characters.').waitFor();
    await task.pressSequentially('ix');
    await dialog.getByRole('option', { name: '#3 Fix welcome mail' }).waitFor();
    const list = dialog.getByRole('listbox');
    expect(await list.locator('.bk-typeahead-group').allTextContents()).toEqual([
      'Website',
      'Onboarding',
    ]);
    expect(await list.getByRole('option').allTextContents()).toEqual([
      '#12 Fix login page',
      '#14 Fix footer',
      '#3 Fix welcome mail',
    ]);
    await task.press('ArrowDown');
    await task.press('ArrowDown');
    await task.press('Enter');
    // dispatch_action: block_actions with the whole option; the app's views.update keeps it.
    await dialog.getByText('Chosen: #14 Fix footer').waitFor();
    expect(menuActions.at(-1)?.actions[0]).toMatchObject({
      type: 'external_select',
      action_id: 'pick_task',
      block_id: 'task',
      selected_option: option('#14 Fix footer', 't14'),
    });
    expect(await task.inputValue()).toBe('#14 Fix footer');

    // Several choices: chips, each removable.
    const related = dialog.getByRole('combobox', { name: 'Related' });
    const chips = dialog.getByRole('list', { name: 'Chosen' });
    expect(await chips.getByRole('listitem').allTextContents()).toEqual(['#1 Plan the launch×']);
    for (const name of ['#12 Fix login page', '#3 Fix welcome mail']) {
      await related.pressSequentially('fix');
      await dialog.getByRole('option', { name }).click();
    }
    await dialog.getByRole('button', { name: 'Remove #1 Plan the launch' }).click();
    expect(await chips.getByRole('listitem').allTextContents()).toEqual([
      '#12 Fix login page×',
      '#3 Fix welcome mail×',
    ]);

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const values = submissions.at(-1) ?? {};
    expect(values.task?.pick_task).toEqual({
      type: 'external_select',
      selected_option: option('#14 Fix footer', 't14'),
    });
    expect(values.parent?.pick_task?.selected_option).toEqual(option('#1 Plan the launch', 't1'));
    expect(values.related?.pick_task).toEqual({
      type: 'multi_external_select',
      selected_options: [option('#12 Fix login page', 't12'), option('#3 Fix welcome mail', 't3')],
    });
  });

  it('updates live when the app posts, and counts unread DMs', async () => {
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: sandbox.apiUrl });
    await client.chat.postMessage({ channel: 'C0SBGENERAL', text: 'Deploy *finished*' });
    await page.getByText('Deploy finished').waitFor();
    await client.chat.postMessage({ channel: 'U0SBALICE', text: 'You were assigned a task' });
    const app = page.getByRole('button', { name: /Worklink/ });
    await app.locator('.count', { hasText: '1' }).waitFor();
    await app.click();
    await page.getByRole('tab', { name: 'Messages' }).click();
    await page.getByText('You were assigned a task').waitFor();
    await page.screenshot({ path: 'test-results/sandbox-dm.png' });
  });

  it('offers message shortcuts from each message’s ⋯ menu and global shortcuts as buttons', async () => {
    // Its own page and message, so this test does not lean on another's.
    await page.goto(sandbox.url);
    await page.getByRole('heading', { name: '# general' }).waitFor();
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: sandbox.apiUrl });
    await client.chat.postMessage({
      channel: 'U0SBALICE',
      text: 'Please review the release notes',
    });
    const app = page.getByRole('button', { name: /Worklink/ });
    await app.click();
    await page.getByRole('tab', { name: 'Messages' }).click();
    const message = page
      .getByRole('article')
      .filter({ hasText: 'Please review the release notes' });
    await message.getByLabel('Message shortcuts').click();
    await message.getByRole('menuitem', { name: 'Create task from message' }).click();
    await page.getByText('Task from: Please review the release notes').waitFor();

    await page.getByRole('button', { name: '⚡ New task' }).click();
    const dialog = page.getByRole('dialog', { name: 'All inputs' });
    await dialog.waitFor();
    await dialog.getByLabel('Title').press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('replies in a thread: shown under its message, sent to the app with thread_ts', async () => {
    await page.goto(sandbox.url);
    await page.getByRole('heading', { name: '# general' }).waitFor();
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: sandbox.apiUrl });
    const card = await client.chat.postMessage({
      channel: 'C0SBGENERAL',
      text: 'Card: the footer',
    });
    await client.chat.postMessage({ channel: 'C0SBGENERAL', text: 'Something after it' });
    const message = page.getByRole('article').filter({ hasText: 'Card: the footer' });
    await message.getByRole('button', { name: 'Reply in thread' }).click();
    await page.getByText('↳ Replying in thread').waitFor();
    await send('I can take it');
    const reply = page.getByRole('article').filter({ hasText: 'I can take it' });
    await reply.getByText('↳ reply in thread').waitFor();
    // Right under the message it answers, before what came after that message.
    const order = await page
      .locator('article.message')
      .evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    const at = order.findIndex((t) => t.includes('Card: the footer'));
    expect(order[at + 1]).toContain('I can take it');
    const event = await waitFor(
      () => messageEvents.find((e) => e.text === 'I can take it'),
      'the message event',
    );
    expect(event).toMatchObject({
      type: 'message',
      channel: 'C0SBGENERAL',
      user: 'U0SBALICE',
      thread_ts: card.ts,
    });
    // Cancel: the next message goes to the channel.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await send('Back in the channel');
    const top = await waitFor(
      () => messageEvents.find((e) => e.text === 'Back in the channel'),
      'the message event',
    );
    expect(top.thread_ts).toBeUndefined();
    // A thread chosen is the chooser's: another person starts in the channel.
    await message.getByRole('button', { name: 'Reply in thread' }).click();
    await page.getByText('↳ Replying in thread').waitFor();
    await page.getByLabel('You are').selectOption({ label: 'Bob Brown' });
    await page.waitForFunction(() => document.body.dataset.user === 'U0SBBOB');
    expect(await page.getByText('↳ Replying in thread').isVisible()).toBe(false);
    await page.getByLabel('You are').selectOption({ label: 'Alice Adams' });
  });

  it('wraps long words in Block Kit messages instead of pushing buttons off the page', async () => {
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: sandbox.apiUrl });
    const long = 'x'.repeat(400);
    await client.chat.postMessage({
      channel: 'C0SBGENERAL',
      text: 'Long words',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: `*${long}*` },
          accessory: {
            type: 'button',
            text: { type: 'plain_text', text: 'Far right' },
            action_id: 'far',
          },
        },
        { type: 'section', fields: [{ type: 'mrkdwn', text: long }] },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `\`${long}\`` }] },
      ],
    });
    await page.getByRole('button', { name: '# general' }).click();
    const button = page.getByRole('button', { name: 'Far right' });
    await button.waitFor();
    const box = await button.boundingBox();
    const width = page.viewportSize()?.width ?? 0;
    expect(box && box.x + box.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
  });

  it('renders a name that brings the renderer’s own placeholder characters as text, not markup', async () => {
    // A project renamed to two links, the second carrying U+E000 0 U+E001 in its URL: the
    // renderer used to swap its first stashed link back in there, inside href="…", so the
    // first link's URL broke out of the attribute as an onmouseover handler.
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: sandbox.apiUrl });
    const hostile =
      '<https://a.example/ onmouseover=window.__pwned=1 x=|first> <https://b.example/\uE0000\uE001|second>';
    await client.chat.postMessage({
      channel: 'C0SBGENERAL',
      text: hostile,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `Project: ${hostile}` } }],
    });
    await page.getByRole('button', { name: '# general' }).click();
    const message = page.getByRole('article').filter({ hasText: 'Project:' }).last();
    await message.waitFor();
    for (const link of await message.locator('a').all()) await link.hover();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBe(
      undefined,
    );
    expect(await page.locator('[onmouseover]').count()).toBe(0);
    expect(await message.getByRole('link', { name: 'second' }).getAttribute('href')).toBe(
      'https://b.example/0',
    );
  });
});
