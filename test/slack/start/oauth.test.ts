/**
 * Multi-workspace OAuth mode end to end: /slack/install → /slack/oauth_redirect (Slack's
 * oauth.v2.access served by the fake) → installation sealed in the store → requests from that
 * team run with its bot token → the installing user may connect → app_uninstalled forgets all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_SCOPES } from '../../../src/slack/app.js';
import { type Harness, oauthMode, startHarness } from '../../support/harness.js';

const TEAM = 'T_OAUTH';
const BOT_TOKEN = 'xoxb-installed-for-oauth-team';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    configure: oauthMode,
  });
  h.fake.script('oauth.v2.access', (body) =>
    body.code === 'good-code'
      ? {
          ok: true,
          app_id: 'A_WORKLINK',
          authed_user: { id: h.users.bob.id },
          scope:
            'commands,chat:write,users:read,users:read.email,im:write,im:history,files:read,channels:history,groups:history,channels:read,groups:read',
          token_type: 'bot',
          access_token: BOT_TOKEN,
          bot_user_id: 'U_WORKLINK',
          team: { id: TEAM, name: 'OAuth Team' },
          enterprise: null,
          is_enterprise_install: false,
        }
      : { ok: false, error: 'invalid_code' },
  );
});
afterAll(() => h?.stop());

async function install(code: string) {
  const start = await fetch(`${h.worklink.url}/slack/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const location = new URL(start.headers.get('location') ?? '');
  expect(location.origin + location.pathname).toBe('https://slack.com/oauth/v2/authorize');
  // Exactly the scopes the app declares (manifest.test.ts holds the manifest to the same list).
  expect(location.searchParams.get('scope')).toBe(BOT_SCOPES.join(','));
  expect(BOT_SCOPES).toContain('links:write');
  const state = location.searchParams.get('state') ?? '';
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0];
  return fetch(`${h.worklink.url}/slack/oauth_redirect?code=${code}&state=${state}`, {
    headers: { cookie },
    redirect: 'manual',
  });
}

it('refuses a callback whose state is not from this browser', async () => {
  const res = await fetch(`${h.worklink.url}/slack/oauth_redirect?code=good-code&state=forged`);
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(await h.worklink.store.installations.count()).toBe(0);
});

it('installs, keeping the installer and sealing the bot token', async () => {
  const res = await install('good-code');
  expect(res.status).toBe(200);
  const installation = await h.worklink.store.installations.find(TEAM);
  expect(installation?.bot?.token).toBe(BOT_TOKEN);
  expect(installation?.user.id).toBe(h.users.bob.id);
  expect(await h.worklink.store.installations.installerUserId(TEAM)).toBe(h.users.bob.id);
  for (const f of ['worklink.db', 'worklink.db-wal'].map((n) => join(h.dataDir, n))) {
    if (existsSync(f)) expect(readFileSync(f).includes(Buffer.from(BOT_TOKEN))).toBe(false);
  }
});

it('serves the installed team with its own bot token; the installer may connect', async () => {
  h.fake.reset();
  const res = await h.slack.slashCommand(`connect ${h.seed.apiKey}`, {
    teamId: TEAM,
    userId: h.users.bob.id, // not a Slack admin, but the installer
  });
  expect(res.status).toBe(200);
  expect((await h.replyTo(res)).text).toContain(`Connected Worklink to *${h.seed.workspaceName}*`);
  expect(h.fake.callsOf('users.info').every((c) => c.token === BOT_TOKEN)).toBe(true);
  expect((await h.worklink.store.connections.info(TEAM))?.connectedBy).toBe(h.users.bob.id);
});

it('refuses another non-admin of that team', async () => {
  const res = await h.slack.slashCommand('disconnect', { teamId: TEAM, userId: h.users.dan.id });
  expect((await h.replyTo(res)).text).toBe(
    'Sorry, only Slack workspace admins and owners, or <@U_BOB> who installed Worklink, can disconnect Worklink. Please ask one of them to run `/work disconnect`.',
  );
});

it('app_uninstalled deletes the installation and the connection', async () => {
  const res = await h.slack.event({ type: 'app_uninstalled' }, { teamId: TEAM });
  expect(res.status).toBe(200);
  await h.waitFor(async () => (await h.worklink.store.installations.find(TEAM)) === undefined);
  expect(await h.worklink.store.connections.info(TEAM)).toBeUndefined();
});
