// The sandbox's Web API through @slack/web-api's own WebClient, as the app calls it.

import { WebClient } from '@slack/web-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../src/sandbox/records.js';
import type { SandboxServer } from '../../src/sandbox/server.js';
import { quietLogger } from '../support/quiet-logger.js';
import { BOT_TOKEN, startTestSandbox } from './helpers.js';

let sandbox: SandboxServer & { logs: LogEntry[] };
let client: WebClient;

const ALICE = 'U0SBALICE';
const BOB = 'U0SBBOB';
const GENERAL = 'C0SBGENERAL';

function clientWith(token?: string) {
  return new WebClient(token, {
    slackApiUrl: sandbox.apiUrl,
    retryConfig: { retries: 0 },
    logger: quietLogger,
  });
}

/** The Slack error name of a failed call. */
async function slackError(call: Promise<unknown>): Promise<{ error: string; messages?: string[] }> {
  try {
    await call;
  } catch (e) {
    const data = (e as { data?: { error: string; response_metadata?: { messages?: string[] } } })
      .data;
    if (data) return { error: data.error, messages: data.response_metadata?.messages };
    throw e;
  }
  throw new Error('expected the call to fail');
}

const modal = (title = 'Test modal', extra: Record<string, unknown> = {}) => ({
  type: 'modal' as const,
  title: { type: 'plain_text' as const, text: title },
  submit: { type: 'plain_text' as const, text: 'Save' },
  blocks: [
    {
      type: 'input',
      block_id: 'name',
      label: { type: 'plain_text', text: 'Name' },
      element: { type: 'plain_text_input', action_id: 'value' },
    },
  ],
  ...extra,
});

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = clientWith(BOT_TOKEN);
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('auth', () => {
  it('auth.test names the bot, team and sandbox URL', async () => {
    const res = await client.auth.test();
    expect(res).toMatchObject({
      ok: true,
      team_id: sandbox.state.team.id,
      user_id: sandbox.state.bot.botUserId,
      bot_id: sandbox.state.bot.botId,
      url: `${sandbox.url}/`,
      is_enterprise_install: false,
    });
  });

  it('answers invalid_auth for a wrong token and not_authed for none', async () => {
    expect((await slackError(clientWith('xoxb-wrong').auth.test())).error).toBe('invalid_auth');
    expect((await slackError(clientWith().auth.test())).error).toBe('not_authed');
    expect(
      (await slackError(clientWith('xoxb-wrong').chat.postMessage({ channel: GENERAL, text: 'x' })))
        .error,
    ).toBe('invalid_auth');
    expect(sandbox.state.messages.get(GENERAL) ?? []).toHaveLength(0);
  });

  it('accepts a JSON body with a bearer token, and rejects malformed JSON', async () => {
    const res = await fetch(`${sandbox.apiUrl}users.lookupByEmail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOT_TOKEN}` },
      body: JSON.stringify({ email: 'bob@example.com' }),
    });
    expect(await res.json()).toMatchObject({ ok: true, user: { id: BOB } });
    const bad = await fetch(`${sandbox.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOT_TOKEN}` },
      body: '{"channel": ',
    });
    expect(await bad.json()).toEqual({ ok: false, error: 'invalid_json' });
  });
});

describe('chat', () => {
  it('chat.postMessage posts to a channel and, given a user id, to the DM with the bot', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Hello*' } }];
    const res = await client.chat.postMessage({ channel: GENERAL, text: 'Hello', blocks });
    expect(res.ok).toBe(true);
    expect(res.channel).toBe(GENERAL);
    expect(res.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(res.message).toMatchObject({
      type: 'message',
      text: 'Hello',
      user: sandbox.state.bot.botUserId,
      bot_id: sandbox.state.bot.botId,
    });
    expect(res.message?.blocks?.[0]?.block_id).toBeTruthy();

    const dm = await client.chat.postMessage({ channel: BOB, text: 'You have a task' });
    expect(dm.channel).toBe('D0SBBOB');
    const stored = sandbox.state.findMessage('D0SBBOB', dm.ts ?? '');
    expect(stored?.text).toBe('You have a task');
  });

  it('refuses what Slack refuses: no text, bad blocks, unknown channel', async () => {
    expect((await slackError(client.chat.postMessage({ channel: GENERAL, text: '' }))).error).toBe(
      'no_text',
    );
    const bad = await slackError(
      client.chat.postMessage({
        channel: GENERAL,
        text: 'x',
        blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'not plain' } }] as never,
      }),
    );
    expect(bad.error).toBe('invalid_blocks');
    expect(bad.messages?.[0]).toContain('json-pointer:/blocks/0/text/type');
    expect(
      (await slackError(client.chat.postMessage({ channel: 'C0NOPE', text: 'x' }))).error,
    ).toBe('channel_not_found');
    expect(
      (await slackError(client.chat.postMessage({ channel: 'U0NOPE', text: 'x' }))).error,
    ).toBe('channel_not_found');
  });

  it('chat.postEphemeral shows a message to one user only', async () => {
    const res = await client.chat.postEphemeral({
      channel: GENERAL,
      user: ALICE,
      text: 'Just you',
    });
    expect(res.message_ts).toMatch(/^\d{10}\.\d{6}$/);
    const stored = sandbox.state.findMessage(GENERAL, res.message_ts ?? '');
    expect(stored && sandbox.state.canSee(ALICE, stored)).toBe(true);
    expect(stored && sandbox.state.canSee(BOB, stored)).toBe(false);
    expect(
      (await slackError(client.chat.postEphemeral({ channel: GENERAL, user: 'U0NOPE', text: 'x' })))
        .error,
    ).toBe('user_not_found');
    expect(
      (await slackError(client.chat.postEphemeral({ channel: 'D0SBBOB', user: ALICE, text: 'x' })))
        .error,
    ).toBe('user_not_in_channel');
  });

  it('chat.update edits the bot’s own messages only', async () => {
    const posted = await client.chat.postMessage({ channel: GENERAL, text: 'Before' });
    const updated = await client.chat.update({
      channel: GENERAL,
      ts: posted.ts ?? '',
      text: 'After',
    });
    expect(updated).toMatchObject({ ok: true, channel: GENERAL, ts: posted.ts, text: 'After' });
    expect(sandbox.state.findMessage(GENERAL, posted.ts ?? '')?.text).toBe('After');

    const human = sandbox.state.addMessage({ channel: GENERAL, user: ALICE, text: 'mine' });
    expect(
      (await slackError(client.chat.update({ channel: GENERAL, ts: human.ts, text: 'x' }))).error,
    ).toBe('cant_update_message');
    expect(
      (await slackError(client.chat.update({ channel: GENERAL, ts: '1.000001', text: 'x' }))).error,
    ).toBe('message_not_found');
    // Slack wants the DM's channel id here, not the user id.
    expect(
      (await slackError(client.chat.update({ channel: BOB, ts: posted.ts ?? '', text: 'x' })))
        .error,
    ).toBe('channel_not_found');
  });

  it('reactions.add reacts once per name, and messages carry their reactions', async () => {
    const human = sandbox.state.addMessage({ channel: GENERAL, user: ALICE, text: 'React to me' });
    const ok = await client.reactions.add({ channel: GENERAL, timestamp: human.ts, name: 'memo' });
    expect(ok.ok).toBe(true);
    expect(
      (
        await slackError(
          client.reactions.add({ channel: GENERAL, timestamp: human.ts, name: 'memo' }),
        )
      ).error,
    ).toBe('already_reacted');
    expect(
      (
        await slackError(
          client.reactions.add({ channel: GENERAL, timestamp: human.ts, name: 'A b' }),
        )
      ).error,
    ).toBe('invalid_name');
    const history = await client.conversations.history({ channel: GENERAL, limit: 1 });
    expect(history.messages?.[0]).toMatchObject({
      ts: human.ts,
      reactions: [{ name: 'memo', users: [sandbox.state.bot.botUserId], count: 1 }],
    });
    const page = await fetch(`${sandbox.url}/sandbox/state?user=${ALICE}`);
    const snap = (await page.json()) as { messages: Record<string, { ts: string }[]> };
    expect(snap.messages[GENERAL]?.find((m) => m.ts === human.ts)).toMatchObject({
      reactions: [{ name: 'memo', users: [sandbox.state.bot.botUserId] }],
    });
  });

  it('chat.getPermalink links to the page, which opens it', async () => {
    const posted = await client.chat.postMessage({ channel: GENERAL, text: 'Link me' });
    const res = await client.chat.getPermalink({ channel: GENERAL, message_ts: posted.ts ?? '' });
    expect(res.permalink).toBe(
      `${sandbox.url}/archives/${GENERAL}/p${posted.ts?.replace('.', '')}`,
    );
    const page = await fetch(res.permalink ?? '');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Worklink sandbox</title>');
    expect(
      (await slackError(client.chat.getPermalink({ channel: GENERAL, message_ts: '1.000001' })))
        .error,
    ).toBe('message_not_found');
  });
});

describe('views', () => {
  it('views.open opens a modal for the trigger’s user; a trigger works once', async () => {
    const trigger = sandbox.state.issueTrigger(ALICE);
    const res = await client.views.open({ trigger_id: trigger, view: modal() });
    expect(res.view).toMatchObject({
      type: 'modal',
      team_id: sandbox.state.team.id,
      app_id: sandbox.state.bot.appId,
      bot_id: sandbox.state.bot.botId,
      root_view_id: res.view?.id,
      previous_view_id: null,
      state: { values: {} },
    });
    expect(res.view?.id).toMatch(/^V[A-Z0-9]+$/);
    expect(sandbox.state.topModal(ALICE)?.view.id).toBe(res.view?.id);
    expect(
      (await slackError(client.views.open({ trigger_id: trigger, view: modal() }))).error,
    ).toBe('exchanged_trigger_id');
    expect(
      (await slackError(client.views.open({ trigger_id: '1.2.abc', view: modal() }))).error,
    ).toBe('expired_trigger_id');
  });

  it('refuses a trigger after Slack’s 3 seconds', async () => {
    const trigger = sandbox.state.issueTrigger(ALICE);
    const original = sandbox.state.triggers.ttlMs;
    sandbox.state.triggers.ttlMs = -1; // every trigger is already too old
    try {
      expect(
        (await slackError(client.views.open({ trigger_id: trigger, view: modal() }))).error,
      ).toBe('expired_trigger_id');
    } finally {
      sandbox.state.triggers.ttlMs = original;
    }
  });

  it('refuses invalid views with Slack’s messages and uses up no trigger', async () => {
    const trigger = sandbox.state.issueTrigger(BOB);
    const noTitle = { ...modal(), title: undefined } as unknown as ReturnType<typeof modal>;
    const bad = await slackError(client.views.open({ trigger_id: trigger, view: noTitle }));
    expect(bad.error).toBe('invalid_arguments');
    expect(bad.messages?.join(' ')).toContain('json-pointer:/view/title');
    const noSubmit = { ...modal(), submit: undefined } as unknown as ReturnType<typeof modal>;
    const bad2 = await slackError(client.views.open({ trigger_id: trigger, view: noSubmit }));
    expect(bad2.messages?.join(' ')).toContain('/view/submit');
    const long = await slackError(
      client.views.open({ trigger_id: trigger, view: modal('A title that is far too long') }),
    );
    expect(long.messages?.join(' ')).toContain('/view/title/text');
    // The trigger is still good after the refusals.
    expect((await client.views.open({ trigger_id: trigger, view: modal() })).ok).toBe(true);
  });

  it('views.push stacks up to three views, views.update replaces one in place', async () => {
    const first = await client.views.open({
      trigger_id: sandbox.state.issueTrigger(BOB),
      view: modal('One'),
    });
    const rootId = first.view?.id ?? '';
    const pushed = await client.views.push({
      trigger_id: sandbox.state.issueTrigger(BOB),
      view: modal('Two'),
    });
    expect(pushed.view).toMatchObject({ root_view_id: rootId, previous_view_id: rootId });
    await client.views.push({ trigger_id: sandbox.state.issueTrigger(BOB), view: modal('Three') });
    expect(sandbox.state.stackOf(BOB)).toHaveLength(3);
    expect(
      (
        await slackError(
          client.views.push({ trigger_id: sandbox.state.issueTrigger(BOB), view: modal('Four') }),
        )
      ).error,
    ).toBe('push_limit_reached');

    const updated = await client.views.update({
      view_id: rootId,
      hash: first.view?.hash,
      view: modal('One, updated'),
    });
    expect(updated.view?.id).toBe(rootId);
    expect(updated.view?.hash).not.toBe(first.view?.hash);
    expect((updated.view?.title as { text: string } | undefined)?.text).toBe('One, updated');
    expect(
      (
        await slackError(
          client.views.update({ view_id: rootId, hash: first.view?.hash, view: modal() }),
        )
      ).error,
    ).toBe('hash_conflict');
    expect((await slackError(client.views.update({ view_id: 'VNOPE', view: modal() }))).error).toBe(
      'not_found',
    );
  });

  it('views.update finds a view by external_id; external ids are unique', async () => {
    const opened = await client.views.open({
      trigger_id: sandbox.state.issueTrigger(ALICE),
      view: modal('Ext', { external_id: 'task-42' }),
    });
    const res = await client.views.update({
      external_id: 'task-42',
      view: modal('Ext 2', { external_id: 'task-42' }),
    });
    expect(res.view?.id).toBe(opened.view?.id);
    expect(
      (
        await slackError(
          client.views.open({
            trigger_id: sandbox.state.issueTrigger(BOB),
            view: modal('Dup', { external_id: 'task-42' }),
          }),
        )
      ).error,
    ).toBe('duplicate_external_id');
  });

  it('views.publish sets a user’s Home tab', async () => {
    const home = {
      type: 'home' as const,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hi' } }],
    };
    const res = await client.views.publish({ user_id: ALICE, view: home });
    expect(res.view).toMatchObject({ type: 'home' });
    const again = await client.views.publish({ user_id: ALICE, view: home, hash: res.view?.hash });
    expect(again.view?.id).toBe(res.view?.id);
    expect(sandbox.state.homeViews.get(ALICE)).toBe(res.view?.id);
    expect((await slackError(client.views.publish({ user_id: 'U0NOPE', view: home }))).error).toBe(
      'invalid_arguments',
    );
    expect(
      (await slackError(client.views.publish({ user_id: ALICE, view: home, hash: 'stale' }))).error,
    ).toBe('hash_conflict');
  });
});

describe('users, conversations, files', () => {
  it('users.info and users.lookupByEmail return Slack user objects with time zones', async () => {
    const info = await client.users.info({ user: BOB });
    expect(info.user).toMatchObject({
      id: BOB,
      name: 'bob',
      real_name: 'Bob Brown',
      tz: 'Europe/Berlin',
      is_bot: false,
      profile: { email: 'bob@example.com', real_name: 'Bob Brown' },
    });
    expect([3600, 7200]).toContain(info.user?.tz_offset);
    const alice = await client.users.lookupByEmail({ email: 'Alice@Example.com' });
    expect(alice.user).toMatchObject({
      id: ALICE,
      is_admin: true,
      is_owner: true,
      tz: 'America/New_York',
    });
    expect((await slackError(client.users.info({ user: 'U0NOPE' }))).error).toBe('user_not_found');
    expect(
      (await slackError(client.users.lookupByEmail({ email: 'nobody@example.com' }))).error,
    ).toBe('users_not_found');
  });

  it('conversations.open returns the user’s DM with the bot', async () => {
    const res = await client.conversations.open({ users: BOB });
    expect(res.channel?.id).toBe('D0SBBOB');
    const full = await client.conversations.open({ users: BOB, return_im: true });
    expect(full.channel).toMatchObject({ id: 'D0SBBOB', is_im: true, user: BOB });
    expect((await slackError(client.conversations.open({ users: 'U0NOPE' }))).error).toBe(
      'user_not_found',
    );
  });

  it('conversations.history pages newest first, with metadata only when asked', async () => {
    const metadata = (n: number) => ({ event_type: 'task_assigned', event_payload: { n } });
    const posted: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await client.chat.postMessage({
        channel: 'U0SBERIN',
        text: `Assigned ${n}`,
        metadata: metadata(n),
      });
      posted.push(res.ts ?? '');
    }
    await client.chat.postEphemeral({
      channel: 'D0SBERIN',
      user: 'U0SBERIN',
      text: 'Only for Erin',
    });

    const first = await client.conversations.history({
      channel: 'D0SBERIN',
      limit: 2,
      include_all_metadata: true,
    });
    expect(first.messages?.map((m) => m.text)).toEqual(['Assigned 3', 'Assigned 2']);
    expect(first.messages?.[0]?.metadata).toEqual(metadata(3));
    expect(first.has_more).toBe(true);
    const cursor = first.response_metadata?.next_cursor ?? '';
    expect(cursor).not.toBe('');
    const second = await client.conversations.history({
      channel: 'D0SBERIN',
      limit: 2,
      cursor,
      include_all_metadata: true,
    });
    expect(second.messages?.map((m) => m.text)).toEqual(['Assigned 1']);
    expect(second.has_more).toBe(false);

    const plain = await client.conversations.history({ channel: 'D0SBERIN', oldest: posted[0] });
    expect(plain.messages?.map((m) => m.text)).toEqual(['Assigned 3', 'Assigned 2']);
    expect(plain.messages?.some((m) => 'metadata' in m)).toBe(false);
    const inclusive = await client.conversations.history({
      channel: 'D0SBERIN',
      oldest: posted[0],
      latest: posted[1],
      inclusive: true,
    });
    expect(inclusive.messages?.map((m) => m.ts)).toEqual([posted[1], posted[0]]);

    expect(
      (await slackError(client.conversations.history({ channel: 'D0SBERIN', cursor: 'zz' }))).error,
    ).toBe('invalid_cursor');
    const badMetadata = client.chat.postMessage({
      channel: 'U0SBERIN',
      text: 'x',
      metadata: { event_type: 'task_assigned' } as never,
    });
    expect((await slackError(badMetadata)).error).toBe('invalid_metadata_format');
    expect((await slackError(client.conversations.history({ channel: 'C0NOPE' }))).error).toBe(
      'channel_not_found',
    );
  });

  it('files.info returns files users attached in modals', async () => {
    const file = sandbox.state.addFile('https://example.com/specs/brief.pdf', ALICE);
    const res = await client.files.info({ file: String(file.id) });
    expect(res.file).toMatchObject({
      id: file.id,
      name: 'brief.pdf',
      url_private: 'https://example.com/specs/brief.pdf',
    });
    expect((await slackError(client.files.info({ file: 'F0NOPE' }))).error).toBe('file_not_found');
  });
});

describe('honesty', () => {
  it('answers unknown methods with unknown_method and logs them', async () => {
    const res = await slackError(
      client.apiCall('pins.add', { channel: GENERAL, timestamp: '1.000001' }),
    );
    expect(res.error).toBe('unknown_method');
    expect(sandbox.logs.some((l) => l.level === 'warn' && l.text.includes('pins.add'))).toBe(true);
  });

  it('can answer 429 with Retry-After, as Slack rate limits do', async () => {
    sandbox.webApi.injectFault('chat.postMessage', { status: 429, retryAfter: 7 });
    const strict = new WebClient(BOT_TOKEN, {
      slackApiUrl: sandbox.apiUrl,
      logger: quietLogger,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
    const error = await strict.chat
      .postMessage({ channel: GENERAL, text: 'x' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 7 });
    // The fault was used up: the next call goes through.
    expect((await client.chat.postMessage({ channel: GENERAL, text: 'after the limit' })).ok).toBe(
      true,
    );
  });

  it('never fails inside on odd arguments: every answer is a Slack answer', () => {
    const methods = [
      'chat.postMessage',
      'chat.postEphemeral',
      'chat.update',
      'chat.delete',
      'chat.getPermalink',
      'views.open',
      'views.push',
      'views.update',
      'views.publish',
      'users.info',
      'users.lookupByEmail',
      'conversations.open',
      'conversations.info',
      'conversations.history',
      'files.info',
    ];
    const arg = fc.oneof(
      fc.jsonValue(),
      fc.json(),
      fc.constantFrom(GENERAL, ALICE, 'D0SBBOB', '[]', '{}'),
    );
    const args = fc.dictionary(
      fc.constantFrom(
        'channel',
        'user',
        'user_id',
        'users',
        'ts',
        'message_ts',
        'text',
        'blocks',
        'view',
        'view_id',
        'trigger_id',
        'email',
        'file',
        'hash',
        'attachments',
        'limit',
        'cursor',
        'oldest',
        'latest',
        'metadata',
      ),
      arg,
    );
    fc.assert(
      fc.property(fc.constantFrom(...methods), args, (method, a) => {
        const result = sandbox.webApi.call(method, a, BOT_TOKEN);
        expect(result.status).toBe(200);
        expect(typeof result.body.ok).toBe('boolean');
        expect(result.body.error).not.toBe('internal_error');
      }),
      { numRuns: 500 },
    );
  });

  it('refuses blocks and views whose type is an object String() cannot print', () => {
    // {"toString": 1} makes String() throw; that used to end as internal_error.
    const odd = { toString: 1 };
    const post = sandbox.webApi.call(
      'chat.postMessage',
      { channel: GENERAL, text: 'x', blocks: [{ type: odd }] },
      BOT_TOKEN,
    );
    expect(post.body).toMatchObject({ ok: false, error: 'invalid_blocks' });
    const element = { type: 'actions', elements: [{ type: odd, action_id: 'a' }] };
    const actions = sandbox.webApi.call(
      'chat.postMessage',
      { channel: GENERAL, text: 'x', blocks: [element] },
      BOT_TOKEN,
    );
    expect(actions.body).toMatchObject({ ok: false, error: 'invalid_blocks' });
    const view = { type: 'home', blocks: [{ type: 'section', text: { type: odd, text: 'x' } }] };
    const publish = sandbox.webApi.call('views.publish', { user_id: ALICE, view }, BOT_TOKEN);
    expect(publish.body).toMatchObject({ ok: false, error: 'invalid_arguments' });
  });

  it('records the calls made, without the token', async () => {
    await client.users.info({ user: ALICE });
    const last = sandbox.webApi.calls.at(-1);
    expect(last).toMatchObject({ method: 'users.info', ok: true, args: { user: ALICE } });
    expect(JSON.stringify(sandbox.webApi.calls)).not.toContain(BOT_TOKEN);
  });
});
