/**
 * The Web API clients' fetch (src/slack/context/slack-fetch.ts: undici's request on a pool of
 * its own, not the global fetch), against the fake Slack: answers, a 429's retry-after, an
 * HTTP error, and a timeout all reach WebClient as they do through the global fetch.
 */
import { ErrorCode, LogLevel, WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackFetch } from '../../../src/slack/context/slack-fetch.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { heldCalls } from '../../support/held-calls.js';

let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack({ users: [{ id: 'U_ALICE', tz: 'Europe/Berlin' }] });
});
afterAll(() => fake.close());

const client = (options: ConstructorParameters<typeof WebClient>[1] = {}) =>
  new WebClient('xoxb-fetch', {
    slackApiUrl: fake.apiUrl,
    fetch: slackFetch,
    retryConfig: { retries: 0 },
    logLevel: LogLevel.ERROR,
    ...options,
  });

describe('the Web API clients’ fetch', () => {
  it('sends calls and reads their answers', async () => {
    const posted = await client().chat.postMessage({ channel: 'C_GENERAL', text: 'hello' });
    expect(posted.ok).toBe(true);
    expect(posted.ts).toEqual(expect.any(String));
    const call = fake.callsOf('chat.postMessage').at(-1);
    expect(call?.body).toMatchObject({ channel: 'C_GENERAL', text: 'hello' });
    expect(call?.token).toBe('xoxb-fetch');
    const user = await client().users.info({ user: 'U_ALICE' });
    expect(user.user?.tz).toBe('Europe/Berlin');
  });

  it('passes on a 429 with its retry-after, and other HTTP errors with their status', async () => {
    fake.script('chat.postMessage', () => ({ status: 429, headers: { 'retry-after': '7' } }));
    const limited = await client({ rejectRateLimitedCalls: true })
      .chat.postMessage({ channel: 'C_GENERAL', text: 'x' })
      .catch((e: unknown) => e);
    expect(limited).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 7 });

    fake.script('chat.postMessage', () => ({ status: 503 }));
    const failed = await client()
      .chat.postMessage({ channel: 'C_GENERAL', text: 'x' })
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: ErrorCode.HTTPError, statusCode: 503 });
    fake.script('chat.postMessage', undefined);
  });

  it('gives up on a call held past the client’s timeout', async () => {
    const held = heldCalls();
    fake.script('users.info', held.script);
    const late = await client({ timeout: 50 })
      .users.info({ user: 'U_ALICE' })
      .catch((e: unknown) => e);
    held.release();
    fake.script('users.info', undefined);
    expect(late).toMatchObject({ code: ErrorCode.RequestError });
  });
});
