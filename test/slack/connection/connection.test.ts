/**
 * Connecting a workspace: the modal path (views.open right after ack, view_submission with
 * `response_action: 'errors'` for bad input, update on success, background finish when
 * slow), the one-step path, status, disconnect, and the admin-only rule.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  API_KEY_ACTION,
  API_KEY_BLOCK,
  CONNECT_CALLBACK_ID,
} from '../../../src/slack/connection/connect-modal.js';
import { NOT_CONNECTED } from '../../../src/slack/ui/error-text.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { heldCalls } from '../../support/held-calls.js';
import { matchedRow } from '../../support/notify-rows.js';
import { textValues } from '../../support/slack-requests.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());
beforeEach(async () => {
  await h.worklink.store.forgetTeam(h.teamId);
  h.fake.reset();
});
afterEach(() => {
  h.worklink.deps.config.waits = undefined;
  h.fake.script('users.info', undefined);
  h.fake.script('views.open', undefined);
});

const keyValues = (key: string) => textValues({ [API_KEY_BLOCK]: { [API_KEY_ACTION]: key } });

async function openModal(userId = h.users.alice.id) {
  const res = await h.slack.slashCommand('connect', { userId });
  const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
  const view = open.body.view as { callback_id: string; private_metadata: string };
  return { res, open, view };
}

describe('modal path', () => {
  it('opens the modal with the command’s trigger_id', async () => {
    const { res, view } = await openModal();
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(view.callback_id).toBe(CONNECT_CALLBACK_ID);
    expect(JSON.parse(view.private_metadata)).toEqual({
      channelId: 'C_GENERAL',
      responseUrl: res.responseUrl,
    });
  });

  it('answers an empty key with an error under the field', async () => {
    const res = await h.slack.viewSubmission({
      callbackId: CONNECT_CALLBACK_ID,
      values: keyValues('  '),
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: { [API_KEY_BLOCK]: 'Paste an API key to connect.' },
    });
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
  });

  it('answers a key the service refuses with the service’s reason, never the key', async () => {
    const badKey = 'wk_not-a-real-key-1234567890';
    const res = await h.slack.viewSubmission({
      callbackId: CONNECT_CALLBACK_ID,
      values: keyValues(badKey),
    });
    expect(res.json?.response_action).toBe('errors');
    const error = (res.json?.errors as Record<string, string> | undefined)?.[API_KEY_BLOCK];
    expect(error).toMatch(/^The service did not accept this key: .+/);
    expect(error).not.toContain(badKey);
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
  });

  it('connects with a good key, names the workspace and reports in the channel', async () => {
    const { res: command, view } = await openModal();
    const res = await h.slack.viewSubmission({
      callbackId: CONNECT_CALLBACK_ID,
      values: keyValues(h.seed.apiKey),
      privateMetadata: view.private_metadata,
    });
    expect(res.json?.response_action).toBe('update');
    const shown = JSON.stringify(res.json?.view);
    expect(shown).toContain(`Connected Worklink to *${h.seed.workspaceName}*`);
    expect(shown).not.toContain(h.seed.apiKey);
    const saved = await h.worklink.store.connections.get(h.teamId);
    expect(saved).toMatchObject({
      workspaceId: h.seed.workspaceId,
      workspaceName: h.seed.workspaceName,
      apiKey: h.seed.apiKey,
      connectedBy: h.users.alice.id,
      keyOwnerId: h.seed.users[0].id,
    });
    const reply = await h.replyTo(command);
    expect(reply.text).toContain(h.seed.workspaceName);
  });

  it('refuses a non-admin in the modal itself', async () => {
    const { open } = await openModal(h.users.bob.id);
    const update = await h.fake.waitForCall('views.update');
    expect(update.body.view_id).toBe((open.reply as { view: { id: string } }).view.id);
    expect(JSON.stringify(update.body.view)).toContain('only Slack workspace admins and owners');
    // A submission anyway (a stale form) is refused too, under the field.
    const res = await h.slack.viewSubmission(
      { callbackId: CONNECT_CALLBACK_ID, values: keyValues(h.seed.apiKey) },
      { userId: h.users.bob.id },
    );
    expect((res.json?.errors as Record<string, string> | undefined)?.[API_KEY_BLOCK]).toContain(
      'only Slack workspace admins and owners',
    );
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
  });

  it('closes the modal when checking is slow and reports the result afterwards', async () => {
    const { res: command, view } = await openModal();
    h.worklink.deps.users.forget(h.teamId, h.users.alice.id);
    // The role check waits on users.info until the modal is answered: past the submit
    // budget, shortened here from Slack's 3 s so that the test does not sit through it.
    const usersInfo = heldCalls();
    h.fake.script('users.info', usersInfo.script);
    h.worklink.deps.config.waits = { submitBudgetMs: 200 };
    const res = await h.slack.viewSubmission({
      callbackId: CONNECT_CALLBACK_ID,
      values: keyValues(h.seed.apiKey),
      privateMetadata: view.private_metadata,
    });
    h.fake.mark('submission answered');
    usersInfo.release();
    // An empty 200 closes the modal; the role check was still running.
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const reply = await h.replyTo(command);
    const timeline = h.fake.timeline;
    expect(timeline.indexOf('submission answered')).toBeLessThan(
      timeline.lastIndexOf('done users.info'),
    );
    expect(reply.text).toContain(`Connected Worklink to *${h.seed.workspaceName}*`);
    expect((await h.worklink.store.connections.info(h.teamId))?.workspaceId).toBe(
      h.seed.workspaceId,
    );
  });

  it('says so when the trigger has expired', async () => {
    h.fake.script('views.open', () => ({ ok: false, error: 'expired_trigger_id' }));
    const res = await h.slack.slashCommand('connect');
    const reply = await h.replyTo(res);
    expect(reply.text).toBe(
      'Could not open the connect form (expired_trigger_id). You can connect in one step with `/work connect <apiKey>`.',
    );
  });
});

describe('one-step path', () => {
  it('connects with `/work connect <key>`', async () => {
    const res = await h.slack.slashCommand(`connect ${h.seed.apiKey}`);
    const reply = await h.replyTo(res);
    expect(reply.text).toBe(
      `Connected Worklink to *${h.seed.workspaceName}*. Everyone here can now use \`/work\` — try \`/work help\`.`,
    );
    expect((await h.worklink.store.connections.get(h.teamId))?.apiKey).toBe(h.seed.apiKey);
  });

  it('refuses a wrong key, saving nothing and not echoing it', async () => {
    const res = await h.slack.slashCommand('connect wk_wrong_key_abcdef');
    const reply = await h.replyTo(res);
    expect(reply.text).toMatch(/^The service did not accept this key: .+ Nothing was saved\.$/);
    expect(reply.text).not.toContain('wk_wrong_key_abcdef');
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
  });

  it('refuses input with spaces before sending it anywhere', async () => {
    const res = await h.slack.slashCommand('connect my key here');
    expect((await h.replyTo(res)).text).toBe(
      'An API key has no spaces; paste just the key. Nothing was saved.',
    );
  });

  it('refuses a non-admin politely', async () => {
    const res = await h.slack.slashCommand(`connect ${h.seed.apiKey}`, { userId: h.users.bob.id });
    expect((await h.replyTo(res)).text).toBe(
      'Sorry, only Slack workspace admins and owners can connect Worklink. Please ask one of them to run `/work connect`.',
    );
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
  });

  it('says nothing changed when Slack cannot tell the user’s role', async () => {
    h.worklink.deps.users.forget(h.teamId, h.users.carol.id);
    h.fake.script('users.info', () => ({ ok: false, error: 'user_not_found' }));
    const res = await h.slack.slashCommand(`connect ${h.seed.apiKey}`, {
      userId: h.users.carol.id,
    });
    expect((await h.replyTo(res)).text).toMatch(
      /^Worklink could not check your Slack role \(.*user_not_found.*\), so nothing was changed\./,
    );
  });
});

describe('status and disconnect', () => {
  it('status before connecting says how to connect', async () => {
    const res = await h.slack.slashCommand('status', { userId: h.users.bob.id });
    expect((await h.replyTo(res)).text).toBe(NOT_CONNECTED);
  });

  it('status names the workspace, who connected and when, in the reader’s time zone', async () => {
    await h.connect();
    const link = h.seed.projects[0];
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_GENERAL',
      link.projectId,
      h.users.alice.id,
    );
    await h.worklink.store.knownProjects.remember(h.teamId, link.projectId, link.projectName);
    const res = await h.slack.slashCommand('status', { userId: h.users.carol.id });
    const text = (await h.replyTo(res)).text ?? '';
    expect(text).toContain(`*Connected to ${h.seed.workspaceName}*`);
    expect(text).toContain('Connected by <@U_ALICE> on ');
    expect(text).toMatch(/GMT\+9\.$/m); // Carol is in Asia/Tokyo
    expect(text).toContain('The service accepts the API key.');
    expect(text).toContain(`This channel’s default project: *${link.projectName}*`);
  });

  it('status and disconnect show a workspace name with & and < as text, not markup', async () => {
    await h.connect();
    const info = (await h.worklink.store.connections.info(h.teamId))!;
    await h.worklink.store.connections.save({
      ...info,
      apiKey: h.seed.apiKey,
      workspaceName: 'R&D <core>',
    });
    const status = await h.replyTo(await h.slack.slashCommand('status'));
    expect(status.text).toContain('*Connected to R&amp;D &lt;core&gt;*');
    const gone = await h.replyTo(await h.slack.slashCommand('disconnect'));
    expect(gone.text).toMatch(/^Disconnected Worklink from \*R&amp;D &lt;core&gt;\*:/);
  });

  it('disconnect is refused to a non-admin', async () => {
    await h.connect();
    const res = await h.slack.slashCommand('disconnect', { userId: h.users.dan.id });
    expect((await h.replyTo(res)).text).toContain('only Slack workspace admins and owners');
    expect(await h.worklink.store.connections.info(h.teamId)).toBeDefined();
  });

  it('disconnect removes the key and the channel links', async () => {
    await h.connect();
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C1',
      h.seed.projects[0].projectId,
      'U_ALICE',
    );
    const res = await h.slack.slashCommand('disconnect');
    expect((await h.replyTo(res)).text).toBe(
      `Disconnected Worklink from *${h.seed.workspaceName}*: removed the API key and 1 channel link. Nothing was changed in the work-management service.`,
    );
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
    expect(await h.worklink.store.channelProjects.listForTeam(h.teamId)).toEqual([]);
    const again = await h.slack.slashCommand('disconnect');
    expect((await h.replyTo(again)).text).toBe(
      'Worklink is not connected, so there is nothing to disconnect.',
    );
  });

  it('disconnect keeps user links and queued DMs: the app is still installed', async () => {
    await h.connect();
    const { outbox, userLinks: links } = h.worklink.store;
    // Held back an hour, so the running worker leaves it pending.
    const [row] = await outbox.enqueue(
      [matchedRow(h.teamId, 'U_BOB', { notBefore: Date.now() + 3_600_000 })],
      'slack',
    );
    await links.link({
      teamId: h.teamId,
      serviceEmail: 'bob@x.com',
      slackUserId: 'U_BOB',
      linkedBy: 'U1',
    });
    await h.replyTo(await h.slack.slashCommand('disconnect'));
    expect(await h.worklink.store.connections.info(h.teamId)).toBeUndefined();
    expect((await outbox.get(row.id))?.status).toBe('pending');
    expect((await links.byEmail(h.teamId, 'bob@x.com'))?.slackUserId).toBe('U_BOB');
    await links.unlinkSlackUser(h.teamId, 'U_BOB');
  });
});
