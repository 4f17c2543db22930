// The tests' fake Slack is the sandbox's Web API: it refuses what real Slack refuses (unknown
// triggers, views, messages and people), admits only what the harness makes up, and records.

import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';

let fake: FakeSlack;
let slack: WebClient;

const modal = {
  type: 'modal' as const,
  title: { type: 'plain_text' as const, text: 'Hi' },
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hello' } }],
};

async function errorOf(call: Promise<unknown>): Promise<string | undefined> {
  return call.then(
    () => undefined,
    (e: { data?: { error?: string } }) => e.data?.error,
  );
}

beforeAll(async () => {
  fake = await startFakeSlack({ users: [{ id: 'U_ALICE', email: 'alice@example.com' }] });
  slack = new WebClient('xoxb-any', { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
});
afterAll(() => fake?.close());

describe('fake Slack', () => {
  it('refuses what Slack refuses: unknown triggers, views, messages and people', async () => {
    expect(await errorOf(slack.views.open({ trigger_id: 'trig.made-up', view: modal }))).toBe(
      'expired_trigger_id',
    );
    expect(await errorOf(slack.views.update({ view_id: 'V_NOPE', view: modal }))).toBe('not_found');
    expect(await errorOf(slack.chat.update({ channel: 'C_X', ts: '1.000001', text: 'x' }))).toBe(
      'message_not_found',
    );
    expect(await errorOf(slack.users.info({ user: 'U_NOPE' }))).toBe('user_not_found');
    expect(await errorOf(slack.users.lookupByEmail({ email: '' }))).toBe('users_not_found');
  });

  it('takes the triggers the harness issues, once, and updates what it posted', async () => {
    fake.admitTrigger('trig.1', 'U_ALICE');
    const opened = await slack.views.open({ trigger_id: 'trig.1', view: modal });
    expect(await errorOf(slack.views.open({ trigger_id: 'trig.1', view: modal }))).toBe(
      'exchanged_trigger_id',
    );
    const updated = await slack.views.update({ view_id: String(opened.view?.id), view: modal });
    expect(updated.view?.id).toBe(opened.view?.id);
    const posted = await slack.chat.postMessage({ channel: 'C_GENERAL', text: 'one' });
    await slack.chat.update({ channel: 'C_GENERAL', ts: String(posted.ts), text: 'two' });
    const history = await slack.conversations.history({ channel: 'C_GENERAL' });
    expect(history.messages?.map((m) => m.text)).toEqual(['two']);
  });

  it('records each call with its answer, in timeline order', async () => {
    fake.reset();
    await slack.users.info({ user: 'U_ALICE' });
    const [call] = fake.callsOf('users.info');
    expect(call.reply).toMatchObject({ ok: true, user: { id: 'U_ALICE' } });
    expect(fake.timeline[call.seq]).toBe('call users.info');
    expect(fake.timeline[call.doneSeq ?? -1]).toBe('done users.info');
  });
});
