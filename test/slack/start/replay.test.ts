/**
 * Signed requests are taken in once, and only near the present: a timestamp more than 5
 * minutes ahead is refused like a stale one, an identical replay of a signed request inside
 * the window is answered and ignored, and Slack's retry of an event already taken in
 * (`x-slack-retry-num`, re-signed, same event_id) is answered and ignored.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, SIGNING_SECRET, startHarness } from '../../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());

const now = () => Math.floor(Date.now() / 1000);

/** POSTs `body` signed for `timestamp`, with extra headers (what Slack adds on retries). */
async function post(body: string, contentType: string, timestamp: number, extra = {}) {
  const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const res = await fetch(h.worklink.eventsUrl, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signature,
      ...extra,
    },
    body,
  });
  await res.text();
  return res.status;
}

function helpCommand(responseUrl: string): string {
  return new URLSearchParams({
    team_id: h.teamId,
    channel_id: 'C_GENERAL',
    user_id: h.users.alice.id,
    command: '/work',
    text: 'help',
    response_url: responseUrl,
    trigger_id: `trig.${randomUUID()}`,
  }).toString();
}

it('refuses a signed request timestamped more than 5 minutes ahead, as one 5 minutes behind', async () => {
  const form = 'application/x-www-form-urlencoded';
  expect(await post(helpCommand(h.fake.responseUrl()), form, now() + 6 * 60)).toBe(401);
  expect(await post(helpCommand(h.fake.responseUrl()), form, now() - 6 * 60)).toBe(401);
  expect(await post(helpCommand(h.fake.responseUrl()), form, now() + 60)).toBe(200);
});

it('handles an identical replay of a signed request once', async () => {
  const responseUrl = h.fake.responseUrl();
  const id = responseUrl.split('/response/')[1];
  const body = helpCommand(responseUrl);
  const timestamp = now();
  expect(await post(body, 'application/x-www-form-urlencoded', timestamp)).toBe(200);
  expect(await post(body, 'application/x-www-form-urlencoded', timestamp)).toBe(200);
  expect(h.logs.some((l) => l.includes('Ignored a replayed Slack request'))).toBe(true);
  // A later command's reply arrives after anything the replay would have posted.
  const marker = await h.slack.slashCommand('help');
  await h.replyTo(marker);
  await h.waitFor(() => h.fake.responses.some((r) => r.id === id));
  expect(h.fake.responses.filter((r) => r.id === id)).toHaveLength(1);
});

it('handles an event once when Slack sends it again with x-slack-retry-num', async () => {
  const eventId = `Ev${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const delivery = (user: string, id = eventId) =>
    JSON.stringify({
      team_id: h.teamId,
      api_app_id: 'A_TEST',
      event: { type: 'app_home_opened', user, tab: 'home', channel: 'D1', event_ts: `${now()}` },
      type: 'event_callback',
      event_id: id,
      event_time: now(),
      authorizations: [{ team_id: h.teamId, user_id: 'U_WORKLINK', is_bot: true }],
    });
  const publishesFor = (user: string) =>
    h.fake.callsOf('views.publish').filter((c) => c.body.user_id === user).length;
  const bob = h.users.bob.id;
  const before = publishesFor(bob);
  expect(await post(delivery(bob), 'application/json', now())).toBe(200);
  await h.waitFor(() => publishesFor(bob) === before + 1);
  // Re-signed a second later, as Slack's retries are.
  const retry = await post(delivery(bob), 'application/json', now() + 1, {
    'x-slack-retry-num': '1',
    'x-slack-retry-reason': 'http_timeout',
  });
  expect(retry).toBe(200);
  expect(
    h.logs.some((l) => l.includes(`Ignored Slack's repeat of event ${eventId} (retry 1)`)),
  ).toBe(true);
  // A later event's Home arrives after anything the retry would have published.
  const carol = h.users.carol.id;
  expect(await post(delivery(carol, `${eventId}x`), 'application/json', now())).toBe(200);
  await h.waitFor(() => publishesFor(carol) > 0);
  expect(publishesFor(bob)).toBe(before + 1);
});
