/**
 * Org-ready installation in OAuth mode: Slack's oauth.v2.access answers an organisation-level
 * install (`is_enterprise_install: true`, `team: null`, the enterprise), Worklink stores ONE
 * installation for the organisation, and it serves every workspace of it — two workspaces
 * each connect their own service key (as the installer) and each is answered from its own;
 * a workflow step run in one workspace writes to that workspace's service; the assignment DM
 * goes out with the organisation's token. Uninstalling one workspace keeps the org install.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBody } from '../../../src/sandbox/signer.js';
import { type SeedResult, seedDemoWorkspace } from '../../../src/service/index.js';
import { type Harness, oauthMode, startHarness } from '../../support/harness.js';
import type { SlackResponse } from '../../support/slack-requests.js';
import { SureWorkClient } from '../../support/sure-work.js';
import { runWorkflowStep } from '../../support/workflow-events.js';

const ORG = 'E_ACME';
const SALES = 'T_ACME_SALES';
const SUPPORT = 'T_ACME_SUPPORT';
const ORG_TOKEN = 'xoxb-acme-org-wide';

let h: Harness;
let second: SeedResult;
/** The service workspace the organisation as a whole connects to. */
let third: SeedResult;

beforeAll(async () => {
  h = await startHarness({ configure: oauthMode });
  second = seedDemoWorkspace(h.service.db);
  third = seedDemoWorkspace(h.service.db);
  h.fake.script('oauth.v2.access', (body) =>
    body.code === 'org-code'
      ? {
          // Slack's answer for an organisation-level install (enterprise/apps/reference).
          ok: true,
          app_id: 'A_WORKLINK',
          authed_user: { id: h.users.alice.id },
          scope: 'commands,chat:write,users:read,users:read.email,im:write,im:history',
          token_type: 'bot',
          access_token: ORG_TOKEN,
          bot_user_id: 'U_WORKLINK',
          team: null,
          enterprise: { id: ORG, name: 'Acme Org' },
          is_enterprise_install: true,
        }
      : { ok: false, error: 'invalid_code' },
  );
});
afterAll(() => h?.stop());

/** A `/work` command as Slack sends it from a workspace of the organisation. */
async function orgCommand(text: string, teamId: string, userId = h.users.alice.id) {
  const responseUrl = h.fake.responseUrl();
  const { body, contentType } = encodeBody('command', {
    token: 'legacy-verification-token',
    team_id: teamId,
    team_domain: teamId.toLowerCase(),
    enterprise_id: ORG,
    enterprise_name: 'Acme Org',
    channel_id: 'C_GENERAL',
    channel_name: 'general',
    user_id: userId,
    user_name: userId.toLowerCase(),
    command: '/work',
    text,
    api_app_id: 'A_WORKLINK',
    is_enterprise_install: 'true',
    response_url: responseUrl,
    trigger_id: `trig.${Math.random()}`,
  });
  const res: SlackResponse = { ...(await h.slack.send(body, contentType)), responseUrl };
  expect(res.status).toBe(200);
  return h.replyTo(res);
}

describe('an organisation-level install', () => {
  it('stores one installation for the organisation', async () => {
    const start = await fetch(`${h.worklink.url}/slack/install`, { redirect: 'manual' });
    const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const done = await fetch(
      `${h.worklink.url}/slack/oauth_redirect?code=org-code&state=${state}`,
      {
        headers: { cookie },
        redirect: 'manual',
      },
    );
    expect(done.status).toBe(200);
    expect(await h.worklink.store.installations.count()).toBe(1);
    const org = await h.worklink.store.installations.find(undefined, ORG);
    expect(org).toMatchObject({ isEnterpriseInstall: true, bot: { token: ORG_TOKEN } });
    // Every workspace of the organisation is served by it.
    expect((await h.worklink.store.installations.find(SALES, ORG))?.bot?.token).toBe(ORG_TOKEN);
  });

  it('serves two workspaces of the organisation, each with its own connection', async () => {
    h.fake.reset();
    expect((await orgCommand(`connect ${h.seed.apiKey}`, SALES)).text).toContain(
      `Connected Worklink to *${h.seed.workspaceName}*`,
    );
    expect((await orgCommand(`connect ${second.apiKey}`, SUPPORT)).text).toContain(
      `Connected Worklink to *${second.workspaceName}*`,
    );
    expect((await orgCommand('status', SALES)).text).toContain(
      `*Connected to ${h.seed.workspaceName}*`,
    );
    expect((await orgCommand('status', SUPPORT)).text).toContain(
      `*Connected to ${second.workspaceName}*`,
    );
    expect((await h.worklink.store.connections.info(SALES))?.enterpriseId).toBe(ORG);
    // Slack was asked with the organisation's token only.
    expect(h.fake.calls.every((c) => c.token === ORG_TOKEN)).toBe(true);
  });

  it('runs a workflow step in one workspace against that workspace’s service', async () => {
    h.fake.reset();
    const support = second.projects[0]!.projectId;
    const run = await runWorkflowStep(
      h,
      'create_task',
      { project: support, title: 'Answer the Acme ticket', assignees: [h.users.bob.id] },
      { teamId: SUPPORT, enterpriseId: ORG },
    );
    expect(run.ended.state).toBe('completed');
    const taskId = String(run.ended.outputs?.task_id);
    const supportWork = new SureWorkClient({
      baseUrl: h.service.baseUrl,
      altUrl: h.service.altUrl,
      apiKey: second.apiKey,
    });
    expect((await supportWork.getTask(taskId)).taskName).toBe('Answer the Acme ticket');
    // Not in the other workspace's service.
    await expect(h.work.getTask(taskId)).rejects.toThrow();
    // Bob's assignment DM is sent with the organisation's token.
    const dm = await h.fake.waitForCall('chat.postMessage', (c) => c.body.channel === 'U_BOB');
    expect(dm.token).toBe(ORG_TOKEN);
    // An organisation-wide token's calls name the workspace they are for.
    expect(dm.body.team_id).toBe(SUPPORT);
    const lookups = h.fake.callsOf('users.info');
    expect(lookups.length).toBeGreaterThan(0);
    expect(lookups.every((c) => c.body.team_id === SUPPORT)).toBe(true);
  });

  it('lets the admin connect the whole organisation with one key instead', async () => {
    const OPS = 'T_ACME_OPS';
    const LEGAL = 'T_ACME_LEGAL';
    expect((await orgCommand('status', OPS)).text).toContain('not connected');
    expect((await orgCommand(`connect org ${third.apiKey}`, OPS)).text).toContain(
      `Connected the organisation to *${third.workspaceName}*`,
    );
    // Another workspace of the organisation uses it at once; those with their own key keep it.
    expect((await orgCommand('status', LEGAL)).text).toContain(
      `*Connected to ${third.workspaceName}*`,
    );
    expect((await orgCommand('status', SUPPORT)).text).toContain(
      `*Connected to ${second.workspaceName}*`,
    );
    const legal = await runWorkflowStep(
      h,
      'find_task',
      { words: 'sitemap', project: third.projects[0]!.projectId },
      { teamId: LEGAL, enterpriseId: ORG },
    );
    expect(legal.ended.outputs).toMatchObject({ found: true, task_name: 'Draft the sitemap' });
    // A member cannot undo it.
    expect((await orgCommand('disconnect org', LEGAL, h.users.dan.id)).text).toContain(
      'Sorry, only',
    );
    expect((await orgCommand('disconnect org', OPS)).text).toContain(
      'removed its key from 2 workspaces',
    );
    expect(await h.worklink.store.connections.info(LEGAL)).toBeUndefined();
    expect(await h.worklink.store.connections.info(ORG)).toBeUndefined();
    expect((await h.worklink.store.connections.info(SUPPORT))?.workspaceName).toBe(
      second.workspaceName,
    );
    expect((await orgCommand('status', LEGAL)).text).toContain('not connected');
  });

  it('forgets one workspace on its uninstall, keeping the organisation install', async () => {
    const body = JSON.stringify({
      team_id: SALES,
      enterprise_id: ORG,
      api_app_id: 'A_WORKLINK',
      event: { type: 'app_uninstalled', event_ts: `${Date.now() / 1000}` },
      type: 'event_callback',
      event_id: 'EvACMESALES1',
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        {
          enterprise_id: ORG,
          team_id: SALES,
          user_id: 'U_WORKLINK',
          is_bot: true,
          is_enterprise_install: true,
        },
      ],
      is_ext_shared_channel: false,
    });
    expect((await h.slack.send(body, 'application/json')).status).toBe(200);
    await h.waitFor(async () => (await h.worklink.store.connections.info(SALES)) === undefined);
    expect((await h.worklink.store.connections.info(SUPPORT))?.workspaceName).toBe(
      second.workspaceName,
    );
    expect((await h.worklink.store.installations.find(undefined, ORG))?.bot?.token).toBe(ORG_TOKEN);
  });

  it('forgets the organisation’s connections with its install, keeping a workspace installed on its own', async () => {
    const OPS = 'T_ACME_OPS';
    expect((await orgCommand(`connect org ${third.apiKey}`, OPS)).text).toContain(
      'Connected the organisation',
    );
    // A workspace of the organisation that also installed Worklink on its own.
    await h.worklink.store.installations.storeInstallation({
      team: { id: SUPPORT, name: 'Support' },
      enterprise: { id: ORG, name: 'Acme Org' },
      isEnterpriseInstall: false,
      user: { id: h.users.alice.id, token: undefined, scopes: undefined },
      bot: { id: 'B1', userId: 'U_WORKLINK', token: 'xoxb-support-own', scopes: ['commands'] },
      tokenType: 'bot',
      appId: 'A_WORKLINK',
      authVersion: 'v2',
    });
    const body = JSON.stringify({
      team_id: null,
      enterprise_id: ORG,
      api_app_id: 'A_WORKLINK',
      event: { type: 'app_uninstalled', event_ts: `${Date.now() / 1000}` },
      type: 'event_callback',
      event_id: 'EvACMEORG1',
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        {
          enterprise_id: ORG,
          team_id: null,
          user_id: 'U_WORKLINK',
          is_bot: true,
          is_enterprise_install: true,
        },
      ],
      is_ext_shared_channel: false,
    });
    expect((await h.slack.send(body, 'application/json')).status).toBe(200);
    await h.waitFor(
      async () => (await h.worklink.store.installations.find(undefined, ORG)) === undefined,
    );
    await h.waitFor(async () => (await h.worklink.store.connections.info(OPS)) === undefined);
    expect(await h.worklink.store.connections.info(ORG)).toBeUndefined();
    expect((await h.worklink.store.connections.info(SUPPORT))?.workspaceName).toBe(
      second.workspaceName,
    );
  });
});
