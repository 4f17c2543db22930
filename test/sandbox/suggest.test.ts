// Select menus with an external data source, through the page's route (POST /sandbox/suggest):
// what the user types reaches a real Bolt app as a signed block_suggestion (Bolt checks the
// signature, so each answered request proves it), the app's options or option groups come back,
// and a chosen option reaches the app as the whole option object, in view_submission and in
// block_actions. Bad input gets a sentence and changes nothing.

import type { App, BlockAction, BlockSuggestion, ViewSubmitAction } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuggestResult } from '../../src/sandbox/suggestions.js';
import { startTestSandbox, startTinyApp, type TinyApp, waitFor } from './helpers.js';

const ALICE = 'U0SBALICE';
const BOB = 'U0SBBOB';
const GENERAL = 'C0SBGENERAL';

const option = (text: string, value: string) => ({
  text: { type: 'plain_text' as const, text },
  value,
});
const TASKS = [option('#12 Fix login page', 't12'), option('#13 Fix signup form', 't13')];
const INITIAL = option('#7 Draft the sitemap', 't7');

const input = (block_id: string, label: string, element: object, optional = true) => ({
  type: 'input',
  block_id,
  optional,
  label: { type: 'plain_text', text: label },
  element,
});

const pickerModal = {
  type: 'modal' as const,
  callback_id: 'picker_modal',
  title: { type: 'plain_text' as const, text: 'Pick a task' },
  submit: { type: 'plain_text' as const, text: 'Post' },
  blocks: [
    input(
      'task',
      'Task',
      { type: 'external_select', action_id: 'pick', min_query_length: 2 },
      false,
    ),
    input('grouped', 'Grouped', {
      type: 'external_select',
      action_id: 'pick_grouped',
      initial_option: INITIAL,
    }),
    input('broken', 'Broken', {
      type: 'external_select',
      action_id: 'pick_broken',
      min_query_length: 0,
    }),
    input('related', 'Related', {
      type: 'multi_external_select',
      action_id: 'pick',
      min_query_length: 1,
      max_selected_items: 2,
      initial_options: [INITIAL],
    }),
    input('note', 'Note', { type: 'plain_text_input', action_id: 'value' }),
  ],
};

type Sandbox = Awaited<ReturnType<typeof startTestSandbox>>;
let sandbox: Sandbox;
let tiny: TinyApp;
const suggestions: BlockSuggestion[] = [];
const submissions: ViewSubmitAction['view']['state']['values'][] = [];
const actions: BlockAction[] = [];

function setup(app: App): void {
  app.command('/work', async ({ command, ack, client, respond }) => {
    await ack();
    if (command.text === 'picker') {
      await client.views.open({ trigger_id: command.trigger_id, view: pickerModal });
    } else {
      await respond({
        response_type: 'in_channel',
        text: 'Choose a task',
        blocks: [
          {
            type: 'actions',
            block_id: 'choose',
            elements: [{ type: 'external_select', action_id: 'pick', min_query_length: 1 }],
          },
        ],
      });
    }
  });
  app.options('pick', async ({ body, ack }) => {
    suggestions.push(body as BlockSuggestion);
    const typed = (body as BlockSuggestion).value.toLowerCase();
    await ack({ options: TASKS.filter((o) => o.text.text.toLowerCase().includes(typed)) });
  });
  app.options('pick_grouped', async ({ body, ack }) => {
    suggestions.push(body as BlockSuggestion);
    await ack({
      option_groups: [
        { label: { type: 'plain_text', text: 'Website' }, options: [TASKS[0]] },
        { label: { type: 'plain_text', text: 'Onboarding' }, options: [TASKS[1]] },
      ],
    });
  });
  app.options('pick_broken', async ({ ack }) => {
    // An option without a value: Slack's client would show nothing.
    await ack({ options: [{ text: { type: 'plain_text', text: 'No value' } }] } as never);
  });
  app.view('picker_modal', async ({ ack, view }) => {
    submissions.push(view.state.values);
    await ack();
  });
  app.action('pick', async ({ ack, body }) => {
    actions.push(body as BlockAction);
    await ack();
  });
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  tiny = await startTinyApp(sandbox, setup);
});

afterAll(async () => {
  await tiny?.stop();
  await sandbox?.stop();
});

async function route(
  path: string,
  body: unknown,
): Promise<{ status: number; json: SuggestResult }> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function openPicker(user: string): Promise<string> {
  await sandbox.interactions.sendMessage(user, GENERAL, '/work picker');
  const view = await waitFor(() => sandbox.state.topModal(user)?.view, 'the picker modal');
  return view.id;
}

const suggest = (viewId: string, blockId: string, actionId: string, value: string) =>
  route('/sandbox/suggest', {
    user: ALICE,
    container: { type: 'view', viewId },
    blockId,
    actionId,
    value,
  });

describe('external_select in the sandbox', () => {
  let viewId = '';

  it('sends what was typed as a signed block_suggestion and returns the app’s options', async () => {
    viewId = await openPicker(ALICE);
    const { status, json } = await suggest(viewId, 'task', 'pick', 'fix');
    expect(status).toBe(200);
    expect(json).toMatchObject({ ok: true, options: TASKS });
    const asked = suggestions.at(-1);
    expect(asked).toMatchObject({
      type: 'block_suggestion',
      action_id: 'pick',
      block_id: 'task',
      value: 'fix',
      user: { id: ALICE },
      team: { id: sandbox.state.team.id },
      api_app_id: sandbox.state.bot.appId,
      container: { type: 'view', view_id: viewId },
      view: { id: viewId, callback_id: 'picker_modal' },
    });

    const narrow = await suggest(viewId, 'task', 'pick', 'signup');
    expect(narrow.json.options).toEqual([TASKS[1]]);
  });

  it('returns option groups as the app sends them', async () => {
    const { json } = await suggest(viewId, 'grouped', 'pick_grouped', 'any');
    expect(json.ok).toBe(true);
    expect(json.option_groups?.map((g) => g.label.text)).toEqual(['Website', 'Onboarding']);
    expect(json.option_groups?.[1]?.options).toEqual([TASKS[1]]);
  });

  it('asks nothing below min_query_length (Slack’s default is 3)', async () => {
    const before = suggestions.length;
    expect((await suggest(viewId, 'task', 'pick', 'f')).json).toEqual({ ok: true, options: [] });
    expect((await suggest(viewId, 'grouped', 'pick_grouped', 'ab')).json.options).toEqual([]);
    expect(suggestions.length).toBe(before);
  });

  it('submits the chosen option whole (selected_option), and the initial one untouched', async () => {
    const result = await route('/sandbox/submit', {
      user: ALICE,
      viewId,
      values: { task: { pick: 't13' }, note: { value: 'hi' } },
    });
    expect(result.json).toMatchObject({ ok: true });
    const values = await waitFor(() => submissions.at(-1), 'the view_submission');
    expect(values.task.pick).toEqual({ type: 'external_select', selected_option: TASKS[1] });
    expect(values.grouped.pick_grouped).toEqual({
      type: 'external_select',
      selected_option: INITIAL,
    });
    expect(values.broken.pick_broken).toEqual({ type: 'external_select', selected_option: null });
    expect(values.related.pick).toEqual({
      type: 'multi_external_select',
      selected_options: [INITIAL],
    });
  });

  it('takes several options for a multi_external_select, within max_selected_items', async () => {
    const id = await openPicker(ALICE);
    const offered = await suggest(id, 'related', 'pick', 'fix');
    expect(offered.json.options).toEqual(TASKS);
    const over = await sandbox.interactions.submitView({
      userId: ALICE,
      viewId: id,
      values: { task: { pick: 't12' }, related: { pick: ['t7', 't12', 't13'] } },
    });
    // "task" was never asked in this view: its value is one the user cannot have chosen.
    expect(over.errors).toEqual({
      task: 'Choose an option from the list.',
      related: 'Choose at most 2.',
    });
    await suggest(id, 'task', 'pick', 'fix');
    const unknown = await sandbox.interactions.submitView({
      userId: ALICE,
      viewId: id,
      values: { task: { pick: 't12' }, related: { pick: ['t12', 'made-up'] } },
    });
    expect(unknown.errors).toEqual({ related: 'Choose options from the list.' });
    const count = submissions.length;
    const ok = await sandbox.interactions.submitView({
      userId: ALICE,
      viewId: id,
      values: { task: { pick: 't12' }, related: { pick: ['t13', 't7'] } },
    });
    expect(ok).toMatchObject({ ok: true });
    const values = await waitFor(() => submissions.length > count && submissions.at(-1), 'it');
    expect(values.related.pick?.selected_options).toEqual([TASKS[1], INITIAL]);
  });

  it('refuses a value the app never offered, as Slack’s client cannot send one', async () => {
    viewId = await openPicker(ALICE);
    const count = submissions.length;
    const result = await sandbox.interactions.submitView({
      userId: ALICE,
      viewId,
      values: { task: { pick: 'made-up' } },
    });
    expect(result).toEqual({ ok: false, errors: { task: 'Choose an option from the list.' } });
    // Options offered in another view do not count here either.
    const other = await sandbox.interactions.submitView({
      userId: ALICE,
      viewId,
      values: { task: { pick: 't13' } },
    });
    expect(other.errors?.task).toBe('Choose an option from the list.');
    expect(submissions.length).toBe(count);
  });

  it('says so when the app answers with invalid options, and logs why', async () => {
    const { json } = await suggest(viewId, 'broken', 'pick_broken', '');
    expect(json).toEqual({
      ok: false,
      status: 200,
      problem: 'The app did not offer options for that.',
    });
    expect(
      sandbox.logs.some((e) => e.level === 'warn' && e.text.includes('/options/0/value')),
    ).toBe(true);
  });

  it('answers bad requests with a sentence and keeps working', async () => {
    const missing = await route('/sandbox/suggest', {
      user: ALICE,
      container: { type: 'view', viewId },
      blockId: 'task',
      actionId: 'pick',
    });
    expect(missing.status).toBe(400);
    expect(missing.json.problem).toMatch(/^value: /);
    expect((await route('/sandbox/suggest', '{not json')).status).toBe(400);
    expect((await route('/sandbox/suggest', [1, 2])).status).toBe(400);
    const tooLong = await suggest(viewId, 'task', 'pick', 'x'.repeat(2001));
    expect(tooLong.status).toBe(400);

    expect((await suggest('V0NOPE', 'task', 'pick', 'fix')).json).toEqual({
      ok: false,
      problem: 'That view is no longer open.',
    });
    expect((await suggest(viewId, 'note', 'value', 'fix')).json).toEqual({
      ok: false,
      problem: 'That element does not load options from the app.',
    });
    expect((await suggest(viewId, 'task', 'nope', 'fix')).json.problem).toBe(
      'That element is no longer in the view.',
    );
    // Bob cannot reach Alice's modal.
    const bob = await route('/sandbox/suggest', {
      user: BOB,
      container: { type: 'view', viewId },
      blockId: 'task',
      actionId: 'pick',
      value: 'fix',
    });
    expect(bob.json).toEqual({ ok: false, problem: 'That view is no longer open.' });

    expect((await suggest(viewId, 'task', 'pick', 'login')).json.options).toEqual([TASKS[0]]);
  });

  it('sends block_actions with the chosen option when a message’s menu is used', async () => {
    await sandbox.interactions.sendMessage(ALICE, GENERAL, '/work choose');
    const message = await waitFor(
      () => sandbox.state.messages.get(GENERAL)?.findLast((m) => m.text === 'Choose a task'),
      'the message with the menu',
    );
    const container = { type: 'message', channel: GENERAL, ts: message.ts };
    const { json } = await route('/sandbox/suggest', {
      user: ALICE,
      container,
      blockId: 'choose',
      actionId: 'pick',
      value: 'login',
    });
    expect(json.options).toEqual([TASKS[0]]);
    expect(suggestions.at(-1)).toMatchObject({
      container: { type: 'message', message_ts: message.ts, channel_id: GENERAL },
      channel: { id: GENERAL, name: 'general' },
    });
    const result = await route('/sandbox/action', {
      user: ALICE,
      container,
      blockId: 'choose',
      actionId: 'pick',
      value: 't12',
    });
    expect(result.json).toMatchObject({ ok: true });
    const body = await waitFor(() => actions.at(-1), 'the block_actions');
    expect(body.actions[0]).toMatchObject({
      type: 'external_select',
      action_id: 'pick',
      block_id: 'choose',
      selected_option: TASKS[0],
    });
  });
});
