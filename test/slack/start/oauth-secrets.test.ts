/**
 * OAuth mode keeps its secrets (issue 24, finding 6): an install and a token refresh log no
 * request bodies (they carry the client secret, the code and the refresh token), even at
 * debug; and a rotating bot token about to expire is refreshed once when two requests of the
 * team arrive together, then used by both.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppConfig } from '../../../src/config.js';
import { type Harness, oauthMode, startHarness } from '../../support/harness.js';

const TEAM = 'T_ROTATING';
const CLIENT_SECRET = 'client-secret-never-in-a-log-0123';
const FIRST_TOKEN = 'xoxe.xoxb-first-rotating-token';

let h: Harness;
let refreshes: string[];

beforeAll(async () => {
  refreshes = [];
  h = await startHarness({
    configure: (config: AppConfig) => {
      const oauth = oauthMode(config);
      return oauth.slack.mode === 'oauth'
        ? { ...oauth, slack: { ...oauth.slack, clientSecret: CLIENT_SECRET } }
        : oauth;
    },
  });
  h.fake.script('oauth.v2.access', (body) => {
    if (body.grant_type === 'refresh_token') {
      refreshes.push(String(body.refresh_token));
      const n = refreshes.length;
      return {
        ok: true,
        token_type: 'bot',
        access_token: `xoxe.xoxb-refreshed-${n}`,
        refresh_token: `xoxe-1-refresh-${n + 1}`,
        expires_in: 43_200,
      };
    }
    return body.code === 'good-code'
      ? {
          ok: true,
          app_id: 'A_WORKLINK',
          authed_user: { id: h.users.bob.id },
          scope: 'commands,chat:write,users:read,users:read.email,im:write',
          token_type: 'bot',
          access_token: FIRST_TOKEN,
          refresh_token: 'xoxe-1-refresh-1',
          // Within Bolt's two-hour window: the next request refreshes it.
          expires_in: 600,
          bot_user_id: 'U_WORKLINK',
          team: { id: TEAM, name: 'Rotating Team' },
          enterprise: null,
          is_enterprise_install: false,
        }
      : { ok: false, error: 'invalid_code' };
  });
});
afterAll(() => h?.stop());

async function install(code: string) {
  const start = await fetch(`${h.worklink.url}/slack/install`, { redirect: 'manual' });
  const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0];
  return fetch(`${h.worklink.url}/slack/oauth_redirect?code=${code}&state=${state}`, {
    headers: { cookie },
    redirect: 'manual',
  });
}

it('installs without logging the client secret or any request body of the installer', async () => {
  expect((await install('good-code')).status).toBe(200);
  expect((await h.worklink.store.installations.find(TEAM))?.bot?.token).toBe(FIRST_TOKEN);
  const logs = h.logs.join('\n');
  expect(logs).not.toContain(CLIENT_SECRET);
  expect(logs).not.toContain('client_secret');
  expect(logs).not.toContain('good-code');
});

it('refreshes an expiring token once for two requests arriving together', async () => {
  h.fake.reset();
  const [a, b] = await Promise.all([
    h.slack.slashCommand('help', { teamId: TEAM, userId: h.users.bob.id }),
    h.slack.slashCommand('help', { teamId: TEAM, userId: h.users.carol.id }),
  ]);
  expect([a.status, b.status]).toEqual([200, 200]);
  await h.replyTo(a);
  await h.replyTo(b);
  expect(refreshes).toEqual(['xoxe-1-refresh-1']);
  const saved = await h.worklink.store.installations.find(TEAM);
  expect(saved?.bot?.token).toBe('xoxe.xoxb-refreshed-1');
  expect(saved?.bot?.refreshToken).toBe('xoxe-1-refresh-2');
  // A later request uses the refreshed token as it is.
  await h.replyTo(await h.slack.slashCommand('help', { teamId: TEAM, userId: h.users.bob.id }));
  expect(refreshes).toHaveLength(1);
  const logs = h.logs.join('\n');
  expect(logs).not.toContain('xoxe-1-refresh-1');
  expect(logs).not.toContain(CLIENT_SECRET);
});
