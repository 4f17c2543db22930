/**
 * Enterprise Grid in OAuth mode: an org-wide install serves every workspace of the org. An
 * uninstall or token revocation from ONE workspace forgets that workspace only; the org-wide
 * install goes only with an event about the org itself.
 */
import type { Installation } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  type Harness,
  oauthMode,
  saveVerifiedConnection,
  startHarness,
} from '../../support/harness.js';

const ORG = 'E_ORG';
const WORKSPACE = 'T_ORG_SALES';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    configure: oauthMode,
  });
});
afterAll(() => h?.stop());
beforeEach(async () => {
  const orgInstall: Installation<'v2', true> = {
    team: undefined,
    enterprise: { id: ORG, name: 'Acme Org' },
    isEnterpriseInstall: true,
    user: { id: 'U_ADMIN', token: undefined, scopes: undefined },
    bot: { id: 'B1', userId: 'U_WORKLINK', token: 'xoxb-org-wide', scopes: ['commands'] },
    tokenType: 'bot',
    appId: 'A_WORKLINK',
    authVersion: 'v2',
  };
  await h.worklink.store.installations.storeInstallation(orgInstall);
  await saveVerifiedConnection(h.worklink.store, h.seed, 'U_ADMIN', h.work, WORKSPACE);
});

/** An Events API delivery as Slack sends it for an org-wide install. */
function orgEvent(event: Record<string, unknown>, teamId: string | null) {
  return h.slack.send(
    JSON.stringify({
      team_id: teamId,
      enterprise_id: ORG,
      api_app_id: 'A_WORKLINK',
      event: { event_ts: `${Date.now() / 1000}`, ...event },
      type: 'event_callback',
      event_id: `Ev${Math.random().toString(36).slice(2, 12)}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        {
          enterprise_id: ORG,
          team_id: teamId,
          user_id: 'U_WORKLINK',
          is_bot: true,
          is_enterprise_install: true,
        },
      ],
      is_ext_shared_channel: false,
    }),
    'application/json',
  );
}

const orgInstall = () => h.worklink.store.installations.find(undefined, ORG);

for (const [name, event] of [
  ['tokens_revoked', { type: 'tokens_revoked', tokens: { bot: ['U_WORKLINK'] } }],
  ['app_uninstalled', { type: 'app_uninstalled' }],
] as const) {
  it(`${name} from one workspace of the org forgets that workspace and keeps the org-wide install`, async () => {
    const res = await orgEvent(event, WORKSPACE);
    expect(res.status).toBe(200);
    await h.waitFor(async () => (await h.worklink.store.connections.info(WORKSPACE)) === undefined);
    expect((await orgInstall())?.bot?.token).toBe('xoxb-org-wide');
  });
}

it('app_uninstalled for the whole org deletes the org-wide install', async () => {
  const res = await orgEvent({ type: 'app_uninstalled' }, null);
  expect(res.status).toBe(200);
  await h.waitFor(async () => (await orgInstall()) === undefined);
});
