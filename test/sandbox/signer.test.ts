// A real Bolt app (HTTP mode) receives what the sandbox sends. Bolt verifies every request's
// signature and timestamp and rejects bad ones, so each handled request proves the signing.

import type { App, BlockAction, SlackShortcut, ViewSubmitAction } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxMessage } from '../../src/sandbox/records.js';
import { deliverSigned, slackSignature } from '../../src/sandbox/signer.js';
import {
  SIGNING_SECRET,
  startTestSandbox,
  startTinyApp,
  type TinyApp,
  waitFor,
} from './helpers.js';

const ALICE = 'U0SBALICE';
const BOB = 'U0SBBOB';
const GENERAL = 'C0SBGENERAL';

type Sandbox = Awaited<ReturnType<typeof startTestSandbox>>;
let sandbox: Sandbox;
let tiny: TinyApp;
const seen: { kind: string; body: Record<string, unknown> }[] = [];
let releaseSlowAck: () => void = () => {};

const form = (
  blockId: string,
  label: string,
  element: Record<string, unknown>,
  optional = false,
) => ({
  type: 'input',
  block_id: blockId,
  optional,
  label: { type: 'plain_text', text: label },
  element,
});

const taskModal = {
  type: 'modal' as const,
  callback_id: 'task_modal',
  private_metadata: 'project=42',
  notify_on_close: true,
  title: { type: 'plain_text' as const, text: 'New task' },
  submit: { type: 'plain_text' as const, text: 'Create' },
  blocks: [
    form('title', 'Title', { type: 'plain_text_input', action_id: 'value' }),
    form('due', 'Due date', { type: 'datepicker', action_id: 'value' }, true),
    form('assignees', 'Assignees', { type: 'multi_users_select', action_id: 'value' }, true),
    form(
      'priority',
      'Priority',
      {
        type: 'static_select',
        action_id: 'value',
        options: [
          { text: { type: 'plain_text', text: 'High' }, value: '2' },
          { text: { type: 'plain_text', text: 'Low' }, value: '4' },
        ],
      },
      true,
    ),
    {
      type: 'actions',
      block_id: 'more',
      elements: [
        { type: 'button', action_id: 'add_details', text: { type: 'plain_text', text: 'More' } },
      ],
    },
  ],
};

function setup(app: App): void {
  app.command('/work', async ({ command, ack, client, respond }) => {
    seen.push({ kind: 'command', body: command as unknown as Record<string, unknown> });
    if (command.text === 'hello') {
      await ack({
        text: 'Hello!',
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: `Hello <@${command.user_id}>` } },
          {
            type: 'actions',
            block_id: 'greet',
            elements: [
              {
                type: 'button',
                action_id: 'wave',
                value: 'w1',
                text: { type: 'plain_text', text: 'Wave' },
              },
            ],
          },
        ],
      });
    } else if (command.text === 'new') {
      await ack();
      await client.views.open({ trigger_id: command.trigger_id, view: taskModal });
    } else if (command.text === 'later') {
      await ack();
      await respond({ response_type: 'in_channel', text: 'Posted for everyone' });
    } else if (command.text === 'slow') {
      await new Promise<void>((resolve) => {
        releaseSlowAck = resolve;
      });
      await ack();
    } else {
      await ack(`Unknown: ${command.text}`);
    }
  });
  app.action<BlockAction>('wave', async ({ ack, body, respond }) => {
    await ack();
    seen.push({ kind: 'action', body: body as unknown as Record<string, unknown> });
    await respond({ replace_original: true, text: `Waved by <@${body.user.id}>` });
  });
  app.action('noop', async ({ ack }) => {
    await ack();
  });
  app.action<BlockAction>('add_details', async ({ ack, body, client }) => {
    await ack();
    seen.push({ kind: 'view-action', body: body as unknown as Record<string, unknown> });
    await client.views.push({
      trigger_id: body.trigger_id,
      view: {
        type: 'modal',
        callback_id: 'details',
        title: { type: 'plain_text', text: 'Details' },
        submit: { type: 'plain_text', text: 'Done' },
        blocks: [
          form('notes', 'Notes', { type: 'plain_text_input', action_id: 'value', multiline: true }),
        ],
      },
    });
  });
  app.view<ViewSubmitAction>('task_modal', async ({ ack, body, view }) => {
    seen.push({ kind: 'submission', body: body as unknown as Record<string, unknown> });
    const title = view.state.values.title?.value?.value ?? '';
    if (title === 'bad') {
      await ack({ response_action: 'errors', errors: { title: 'Pick a better title' } });
    } else if (title === 'push') {
      await ack({
        response_action: 'push',
        view: {
          type: 'modal',
          callback_id: 'details',
          title: { type: 'plain_text', text: 'Details' },
          submit: { type: 'plain_text', text: 'Done' },
          blocks: [form('notes', 'Notes', { type: 'plain_text_input', action_id: 'value' })],
        },
      });
    } else if (title === 'odd') {
      // An answer String() cannot print: {"toString": 1} as the response_action.
      await ack({ response_action: { toString: 1 } } as never);
    } else if (title === 'update') {
      await ack({
        response_action: 'update',
        view: { ...taskModal, title: { type: 'plain_text', text: 'Updated' } },
      });
    } else {
      await ack();
    }
  });
  app.view('details', async ({ ack }) => {
    await ack({ response_action: 'clear' });
  });
  app.view({ type: 'view_closed', callback_id: 'task_modal' }, async ({ ack, body }) => {
    await ack();
    seen.push({ kind: 'closed', body: body as unknown as Record<string, unknown> });
  });
  app.shortcut<SlackShortcut>('new_task', async ({ ack, shortcut, client }) => {
    await ack();
    seen.push({ kind: 'shortcut', body: shortcut as unknown as Record<string, unknown> });
    await client.views.open({ trigger_id: shortcut.trigger_id, view: taskModal });
  });
  app.shortcut<SlackShortcut>('task_from_message', async ({ ack, shortcut, respond }) => {
    await ack();
    seen.push({ kind: 'message-shortcut', body: shortcut as unknown as Record<string, unknown> });
    await respond({ text: 'Task created from that message' });
  });
  app.event('message', async ({ event }) => {
    seen.push({ kind: 'message', body: event as unknown as Record<string, unknown> });
  });
  app.event('app_home_opened', async ({ event, client }) => {
    seen.push({ kind: 'home', body: event as unknown as Record<string, unknown> });
    if (event.tab !== 'home') return;
    await client.views.publish({
      user_id: event.user,
      view: {
        type: 'home',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Your tasks' } }],
      },
    });
  });
}

const last = (kind: string) => [...seen].reverse().find((s) => s.kind === kind)?.body;
const visibleTo = (user: string, channel: string, text: string) =>
  (sandbox.state.messages.get(channel) ?? []).find(
    (m: SandboxMessage) => sandbox.state.canSee(user, m) && m.text.includes(text),
  );

beforeAll(async () => {
  sandbox = await startTestSandbox({ timeoutMs: 2000 });
  tiny = await startTinyApp(sandbox, setup);
});

afterAll(async () => {
  releaseSlowAck();
  await tiny?.stop();
  await sandbox?.stop();
});

describe('signatures', () => {
  it('computes Slack’s v0 signature', () => {
    // Slack's documented example request.
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('Bolt accepts the sandbox’s signed requests and rejects a wrong secret or a stale timestamp', async () => {
    const data = {
      type: 'block_actions',
      user: { id: ALICE },
      team: { id: sandbox.state.team.id },
      actions: [{ type: 'button', action_id: 'noop', block_id: 'b', action_ts: '1.2' }],
    };
    const good = await deliverSigned({
      url: tiny.eventsUrl,
      signingSecret: SIGNING_SECRET,
      kind: 'interactivity',
      data,
    });
    expect(good.status).toBe(200);
    const wrong = await deliverSigned({
      url: tiny.eventsUrl,
      signingSecret: 'not-the-secret',
      kind: 'interactivity',
      data,
    });
    expect(wrong.status).toBe(401);
    const stale = await deliverSigned({
      url: tiny.eventsUrl,
      signingSecret: SIGNING_SECRET,
      kind: 'interactivity',
      data,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(stale.status).toBe(401);
  });

  it('a sandbox with the wrong secret gets its command refused, and says so as Slack would', async () => {
    const other = await startTestSandbox({
      signingSecret: 'wrong-secret',
      appEventsUrl: tiny.eventsUrl,
    });
    try {
      const before = seen.length;
      const result = await other.interactions.sendMessage(ALICE, GENERAL, '/work hello');
      expect(result.ok).toBe(false);
      expect(seen.length).toBe(before);
      const note = (other.state.messages.get(GENERAL) ?? []).find((m) => m.fromSlackbot);
      expect(note?.text).toBe('/work failed with the error "dispatch_failed"');
      expect(note?.ephemeralTo).toBe(ALICE);
    } finally {
      await other.stop();
    }
  });
});

describe('slash commands', () => {
  it('sends the form fields Slack sends; an ack with blocks becomes an ephemeral answer', async () => {
    const result = await sandbox.interactions.sendMessage(ALICE, GENERAL, '/work hello');
    expect(result).toMatchObject({ ok: true, status: 200 });
    const command = last('command');
    expect(command).toMatchObject({
      command: '/work',
      text: 'hello',
      user_id: ALICE,
      user_name: 'alice',
      channel_id: GENERAL,
      channel_name: 'general',
      team_id: sandbox.state.team.id,
      team_domain: sandbox.state.team.domain,
      api_app_id: sandbox.state.bot.appId,
      is_enterprise_install: 'false',
    });
    expect(String(command?.response_url)).toMatch(new RegExp(`^${sandbox.url}/response/`));
    expect(String(command?.trigger_id)).toMatch(/^\d+\.\d+\.[0-9a-f]+$/);
    const answer = visibleTo(ALICE, GENERAL, 'Hello!');
    expect(answer?.ephemeralTo).toBe(ALICE);
    expect(answer?.blocks?.[0]?.type).toBe('section');
    expect(visibleTo(BOB, GENERAL, 'Hello!')).toBeUndefined();
  });

  it('escapes the text as Slack does for should_escape commands', async () => {
    await sandbox.interactions.sendMessage(
      ALICE,
      GENERAL,
      '/work add Fix & ship <b> @bob @nobody #website https://example.com/a?b=1.',
    );
    expect(last('command')?.text).toBe(
      'add Fix &amp; ship &lt;b&gt; <@U0SBBOB|bob> @nobody <#C0SBWEBSITE|website> <https://example.com/a?b=1>.',
    );
    await sandbox.interactions.sendMessage(ALICE, GENERAL, 'Thanks @Carol!');
    expect(visibleTo(BOB, GENERAL, 'Thanks')?.text).toBe('Thanks <@U0SBCAROL|carol>!');
  });

  it('respond() through the response_url posts in_channel for everyone', async () => {
    await sandbox.interactions.sendMessage(BOB, GENERAL, '/work later');
    const posted = await waitFor(
      () => visibleTo(ALICE, GENERAL, 'Posted for everyone'),
      'in-channel response',
    );
    expect(posted.ephemeralTo).toBeUndefined();
    // Slack shows the invocation only for in-channel answers given in the ack; this came later.
    expect(visibleTo(ALICE, GENERAL, '/work later')).toBeUndefined();
  });

  it('reports operation_timeout when the app does not answer in time', async () => {
    const quick = await startTestSandbox({ appEventsUrl: tiny.eventsUrl, timeoutMs: 150 });
    try {
      const result = await quick.interactions.sendMessage(ALICE, GENERAL, '/work slow');
      expect(result.ok).toBe(false);
      const note = (quick.state.messages.get(GENERAL) ?? []).find((m) => m.fromSlackbot);
      expect(note?.text).toBe('/work failed with the error "operation_timeout"');
    } finally {
      releaseSlowAck();
      await quick.stop();
    }
  });

  it('unknown commands never reach the app', async () => {
    const before = seen.length;
    const result = await sandbox.interactions.sendMessage(ALICE, GENERAL, '/nope do it');
    expect(result.ok).toBe(true);
    expect(seen.length).toBe(before);
    expect(visibleTo(ALICE, GENERAL, '`/nope` is not a valid command')?.fromSlackbot).toBe(true);
  });
});

describe('block actions and response_url', () => {
  it('a button click reaches the app, and respond({replace_original}) replaces the message', async () => {
    await sandbox.interactions.sendMessage(BOB, GENERAL, '/work hello');
    const message = visibleTo(BOB, GENERAL, 'Hello!');
    expect(message).toBeDefined();
    const result = await sandbox.interactions.blockAction({
      userId: BOB,
      container: { type: 'message', channel: GENERAL, ts: message?.ts ?? '' },
      blockId: 'greet',
      actionId: 'wave',
    });
    expect(result.ok).toBe(true);
    const body = last('action');
    expect(body).toMatchObject({
      type: 'block_actions',
      user: { id: BOB, username: 'bob' },
      container: {
        type: 'message',
        message_ts: message?.ts,
        channel_id: GENERAL,
        is_ephemeral: true,
      },
      channel: { id: GENERAL, name: 'general' },
      actions: [{ type: 'button', action_id: 'wave', block_id: 'greet', value: 'w1' }],
    });
    // Ephemeral messages are not echoed back in the payload, as in Slack.
    expect(body?.message).toBeUndefined();
    await waitFor(
      () => sandbox.state.findMessage(GENERAL, message?.ts ?? '')?.text.startsWith('Waved'),
      'replace',
    );
    const replaced = sandbox.state.findMessage(GENERAL, message?.ts ?? '');
    expect(replaced?.text).toBe(`Waved by <@${BOB}>`);
    expect(replaced?.blocks).toBeUndefined();
  });

  it('response URLs refuse bad input and die after five uses', async () => {
    const hook = sandbox.state.newResponseHook(ALICE, GENERAL);
    const url = sandbox.state.responseUrl(hook);
    const post = (body: string) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post('{not json')).status).toBe(400);
    expect((await post('{}')).status).toBe(400);
    for (let i = 0; i < 5; i++) {
      const res = await post(JSON.stringify({ text: `use ${i}` }));
      expect(res.status).toBe(200);
    }
    const sixth = await post(JSON.stringify({ text: 'too many' }));
    expect(sixth.status).toBe(404);
    expect(await sixth.text()).toBe('used_url');
    const unknown = await fetch(`${sandbox.url}/response/T/nothing`, {
      method: 'POST',
      body: '{"text":"x"}',
    });
    expect(unknown.status).toBe(404);
  });
});

describe('modals', () => {
  async function openTaskModal(user: string) {
    const before = sandbox.state.topModal(user)?.view.id;
    await sandbox.interactions.sendMessage(user, GENERAL, '/work new');
    return waitFor(() => {
      const top = sandbox.state.topModal(user)?.view;
      return top && top.id !== before ? top : undefined;
    }, 'the modal to open');
  }

  it('view_submission carries state.values in Slack’s shapes; a plain ack closes the modal', async () => {
    const view = await openTaskModal(ALICE);
    const result = await sandbox.interactions.submitView({
      userId: ALICE,
      viewId: view.id,
      values: {
        title: { value: 'Write the brief' },
        due: { value: '2026-11-25' },
        assignees: { value: [BOB, 'U0SBCAROL'] },
        priority: { value: '2' },
      },
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    const body = last('submission');
    expect(body).toMatchObject({
      type: 'view_submission',
      user: { id: ALICE },
      view: {
        id: view.id,
        callback_id: 'task_modal',
        private_metadata: 'project=42',
        state: {
          values: {
            title: { value: { type: 'plain_text_input', value: 'Write the brief' } },
            due: { value: { type: 'datepicker', selected_date: '2026-11-25' } },
            assignees: {
              value: { type: 'multi_users_select', selected_users: [BOB, 'U0SBCAROL'] },
            },
            priority: {
              value: {
                type: 'static_select',
                selected_option: { value: '2', text: { type: 'plain_text', text: 'High' } },
              },
            },
          },
        },
      },
    });
    expect(sandbox.state.stackOf(ALICE)).toHaveLength(0);
  });

  it('checks required fields and bad values before sending anything, as Slack’s client does', async () => {
    const view = await openTaskModal(BOB);
    const before = seen.length;
    const result = await sandbox.interactions.submitView({
      userId: BOB,
      viewId: view.id,
      values: {
        title: { value: '  ' },
        due: { value: '2026-02-30' },
        assignees: { value: ['U0NOBODY'] },
      },
    });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual({
      title: 'Please complete this required field.',
      due: 'Enter a valid date.',
      assignees: 'Choose from the list.',
    });
    expect(seen.length).toBe(before);
    expect(sandbox.state.topModal(BOB)?.view.id).toBe(view.id);
  });

  it('honours response_action errors and update', async () => {
    const view = await openTaskModal(BOB);
    const errors = await sandbox.interactions.submitView({
      userId: BOB,
      viewId: view.id,
      values: { title: { value: 'bad' } },
    });
    expect(errors).toMatchObject({ ok: false, errors: { title: 'Pick a better title' } });
    expect(sandbox.state.topModal(BOB)?.view.id).toBe(view.id);

    const updated = await sandbox.interactions.submitView({
      userId: BOB,
      viewId: view.id,
      values: { title: { value: 'update' } },
    });
    expect(updated.ok).toBe(true);
    const top = sandbox.state.topModal(BOB)?.view;
    expect(top?.id).toBe(view.id);
    expect((top?.title as { text: string } | undefined)?.text).toBe('Updated');
  });

  it('answers an unprintable response_action with a problem, not a failure', async () => {
    const view = await openTaskModal('U0SBERIN');
    const result = await sandbox.interactions.submitView({
      userId: 'U0SBERIN',
      viewId: view.id,
      values: { title: { value: 'odd' } },
    });
    expect(result).toMatchObject({ ok: false, problem: expect.any(String) });
    expect(sandbox.state.topModal('U0SBERIN')?.view.id).toBe(view.id);
    expect(sandbox.logs.some((l) => l.text.includes('unknown response_action'))).toBe(true);
  });

  it('honours response_action push, then clear closes the whole stack', async () => {
    const view = await openTaskModal('U0SBCAROL');
    const pushed = await sandbox.interactions.submitView({
      userId: 'U0SBCAROL',
      viewId: view.id,
      values: { title: { value: 'push' } },
    });
    expect(pushed.ok).toBe(true);
    const top = sandbox.state.topModal('U0SBCAROL')?.view;
    expect(top?.callback_id).toBe('details');
    expect(sandbox.state.stackOf('U0SBCAROL')).toEqual([view.id, top?.id]);
    const cleared = await sandbox.interactions.submitView({
      userId: 'U0SBCAROL',
      viewId: top?.id ?? '',
      values: { notes: { value: 'x' } },
    });
    expect(cleared.ok).toBe(true);
    expect(sandbox.state.stackOf('U0SBCAROL')).toEqual([]);
  });

  it('a button in a modal sends block_actions with the view; views.push stacks, clear closes all', async () => {
    const view = await openTaskModal('U0SBDAN');
    const result = await sandbox.interactions.blockAction({
      userId: 'U0SBDAN',
      container: { type: 'view', viewId: view.id },
      blockId: 'more',
      actionId: 'add_details',
      viewValues: { title: { value: 'Typed so far' } },
    });
    expect(result.ok).toBe(true);
    const body = last('view-action');
    expect(body).toMatchObject({
      type: 'block_actions',
      container: { type: 'view', view_id: view.id },
      view: { id: view.id, state: { values: { title: { value: { value: 'Typed so far' } } } } },
    });
    expect(body?.response_url).toBeUndefined();
    const pushed = await waitFor(
      () =>
        sandbox.state.stackOf('U0SBDAN').length === 2
          ? sandbox.state.topModal('U0SBDAN')?.view
          : undefined,
      'the pushed view',
    );
    expect(pushed.previous_view_id).toBe(view.id);
    const done = await sandbox.interactions.submitView({
      userId: 'U0SBDAN',
      viewId: pushed.id,
      values: { notes: { value: 'Line one\nLine two' } },
    });
    expect(done.ok).toBe(true);
    expect(sandbox.state.stackOf('U0SBDAN')).toHaveLength(0);
  });

  it('closing a modal with notify_on_close sends view_closed', async () => {
    const view = await openTaskModal('U0SBERIN');
    const result = await sandbox.interactions.closeView({ userId: 'U0SBERIN', viewId: view.id });
    expect(result.ok).toBe(true);
    expect(last('closed')).toMatchObject({
      type: 'view_closed',
      is_cleared: false,
      view: { id: view.id },
    });
    expect(sandbox.state.stackOf('U0SBERIN')).toHaveLength(0);
  });
});

describe('shortcuts and events', () => {
  it('a global shortcut’s trigger opens a modal', async () => {
    const result = await sandbox.interactions.shortcut({
      userId: 'U0SBCAROL',
      callbackId: 'new_task',
    });
    expect(result.ok).toBe(true);
    expect(last('shortcut')).toMatchObject({
      type: 'shortcut',
      callback_id: 'new_task',
      user: { id: 'U0SBCAROL' },
    });
    await waitFor(() => sandbox.state.topModal('U0SBCAROL'), 'the shortcut’s modal');
  });

  it('a message shortcut carries the message and a response_url', async () => {
    const m = sandbox.state.addMessage({
      channel: GENERAL,
      user: BOB,
      text: 'Please fix the footer',
    });
    const result = await sandbox.interactions.shortcut({
      userId: ALICE,
      callbackId: 'task_from_message',
      channel: GENERAL,
      ts: m.ts,
    });
    expect(result.ok).toBe(true);
    expect(last('message-shortcut')).toMatchObject({
      type: 'message_action',
      callback_id: 'task_from_message',
      channel: { id: GENERAL, name: 'general' },
      message_ts: m.ts,
      message: { text: 'Please fix the footer', user: BOB },
    });
    const reply = await waitFor(
      () => visibleTo(ALICE, GENERAL, 'Task created from that message'),
      'the reply',
    );
    expect(reply.ephemeralTo).toBe(ALICE);
  });

  it('a message typed in a channel, and a reply in its thread, arrive as message events', async () => {
    expect(
      (await sandbox.interactions.sendMessage(ALICE, GENERAL, 'Who takes the footer?')).ok,
    ).toBe(true);
    const top = await waitFor(
      () => visibleTo(ALICE, GENERAL, 'Who takes the footer?'),
      'the message',
    );
    expect(await waitFor(() => last('message'), 'its event')).toMatchObject({
      type: 'message',
      channel: GENERAL,
      channel_type: 'channel',
      user: ALICE,
      text: 'Who takes the footer?',
      ts: top.ts,
    });
    const reply = await sandbox.interactions.sendMessage(BOB, GENERAL, 'I will', top.ts);
    expect(reply.ok).toBe(true);
    const stored = await waitFor(() => visibleTo(BOB, GENERAL, 'I will'), 'the reply');
    expect(stored.threadTs).toBe(top.ts);
    expect(
      await waitFor(() => (last('message')?.thread_ts ? last('message') : undefined), 'its event'),
    ).toMatchObject({
      type: 'message',
      channel: GENERAL,
      user: BOB,
      text: 'I will',
      ts: stored.ts,
      thread_ts: top.ts,
    });
    // Only a message of the channel can be replied to (not a reply, not a made-up one).
    expect(await sandbox.interactions.sendMessage(BOB, GENERAL, 'x', '1.000001')).toMatchObject({
      ok: false,
      problem: 'There is no such message to reply to in this channel.',
    });
    expect(await sandbox.interactions.sendMessage(BOB, GENERAL, 'x', stored.ts)).toMatchObject({
      ok: false,
    });
  });

  it('app_home_opened arrives as a JSON event_callback; the app publishes Home', async () => {
    const result = await sandbox.interactions.openHome({ userId: BOB, tab: 'home' });
    expect(result.ok).toBe(true);
    expect(last('home')).toMatchObject({
      type: 'app_home_opened',
      user: BOB,
      channel: 'D0SBBOB',
      tab: 'home',
    });
    const homeId = await waitFor(() => sandbox.state.homeViews.get(BOB), 'the Home view');
    expect(sandbox.state.views.get(homeId)?.view.type).toBe('home');
  });
});
