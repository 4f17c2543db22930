/**
 * A person's own key, through signed Slack requests against the embedded service:
 * `/work connect me <apiKey>` (verified: same service workspace, stored sealed), `/work me`,
 * `/work disconnect me`, and the Home tab's "Connect your account" button and modal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDemoWorkspace } from '../../../src/service/index.js';
import {
  HOME_CONNECT_ME,
  OWN_KEY_ACTION,
  OWN_KEY_BLOCK,
  OWN_KEY_CALLBACK_ID,
} from '../../../src/slack/identity/connect-me-modal.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { textValues } from '../../support/slack-requests.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());
beforeEach(async () => {
  for (const k of await h.worklink.store.personalKeys.list(h.teamId)) {
    await h.worklink.store.personalKeys.delete(h.teamId, k.slackUserId);
  }
  h.fake.reset();
});

const keyOf = (email: string) => h.seed.users.find((u) => u.email === email)?.apiKey ?? '';
const BOB = () => h.users.bob.id;

async function command(text: string, userId = BOB()) {
  const res = await h.slack.slashCommand(text, { userId });
  expect(res.status).toBe(200);
  return (await h.replyTo(res)).text ?? '';
}

describe('/work connect me', () => {
  it('stores Bob’s own key, sealed, and says as whom he now acts', async () => {
    const text = await command(`connect me ${keyOf('bob@example.com')}`);
    expect(text).toContain('Connected your own account');
    expect(text).toContain('*Bob Brown*');
    expect(text).not.toContain(keyOf('bob@example.com'));
    const stored = await h.worklink.store.personalKeys.get(h.teamId, BOB());
    expect(stored?.apiKey).toBe(keyOf('bob@example.com'));
    expect(stored?.serviceUserId).toBe(h.seed.users[1]?.id);
    expect(await command('me')).toMatch(
      /^You act as yourself: your own API key acts as \*Bob Brown\*/,
    );
  });

  it('refuses a key of another service workspace, storing nothing', async () => {
    const other = seedDemoWorkspace(h.service.db);
    const text = await command(`connect me ${other.users[1]?.apiKey}`);
    expect(text).toMatch(
      /^This key belongs to \*Demo workspace .+\*, but this Slack workspace is connected to/,
    );
    expect(text).toContain('Nothing was saved.');
    expect(await h.worklink.store.personalKeys.info(h.teamId, BOB())).toBeUndefined();
  });

  it('refuses a key the service does not accept, never repeating it', async () => {
    const bad = 'wk_nobody_has_this_key_42';
    const text = await command(`connect me ${bad}`);
    expect(text).toMatch(/^The service did not accept this key: .+ Nothing was saved\.$/);
    expect(text).not.toContain(bad);
    expect(await h.worklink.store.personalKeys.info(h.teamId, BOB())).toBeUndefined();
  });

  it('refuses before anything is checked when Slack is not connected', async () => {
    await h.worklink.store.connections.delete(h.teamId);
    try {
      expect(await command(`connect me ${keyOf('bob@example.com')}`)).toContain('not connected');
      expect(await h.worklink.store.personalKeys.info(h.teamId, BOB())).toBeUndefined();
    } finally {
      await h.connect();
    }
  });
});

describe('/work disconnect me and /work me', () => {
  it('tries a key marked failing again: accepted, it is back in use', async () => {
    await command(`connect me ${keyOf('bob@example.com')}`);
    await h.worklink.store.personalKeys.markFailing(h.teamId, BOB(), 'a passing outage');
    expect(await command('me')).toMatch(/^You act as yourself/);
    expect(
      (await h.worklink.store.personalKeys.info(h.teamId, BOB()))?.failingSince,
    ).toBeUndefined();
  });

  it('forgets the key; /work me then says Bob acts through the workspace’s connection', async () => {
    await command(`connect me ${keyOf('bob@example.com')}`);
    expect(await command('disconnect me')).toMatch(/^Forgot your own API key\./);
    expect(await h.worklink.store.personalKeys.info(h.teamId, BOB())).toBeUndefined();
    expect(await command('disconnect me')).toMatch(/^You have no API key of your own/);
    expect(await command('me')).toMatch(/^You act through this workspace’s connection/);
  });
});

describe('Connect your account (App Home)', () => {
  it('opens the modal from the Home button and connects from it', async () => {
    const res = await h.slack.blockAction(
      { actionId: HOME_CONNECT_ME, blockId: 'home_you' },
      { userId: BOB(), view: { id: 'V_HOME', type: 'home' } },
    );
    expect(res.status).toBe(200);
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    expect((open.body.view as { callback_id: string }).callback_id).toBe(OWN_KEY_CALLBACK_ID);

    const wrong = await h.slack.viewSubmission(
      {
        callbackId: OWN_KEY_CALLBACK_ID,
        values: textValues({ [OWN_KEY_BLOCK]: { [OWN_KEY_ACTION]: 'wk_wrong_key_000' } }),
      },
      { userId: BOB() },
    );
    expect(wrong.json?.response_action).toBe('errors');

    const good = await h.slack.viewSubmission(
      {
        callbackId: OWN_KEY_CALLBACK_ID,
        values: textValues({ [OWN_KEY_BLOCK]: { [OWN_KEY_ACTION]: keyOf('bob@example.com') } }),
      },
      { userId: BOB() },
    );
    expect(good.json?.response_action).toBe('update');
    expect(JSON.stringify(good.json)).toContain('Bob Brown');
    expect((await h.worklink.store.personalKeys.info(h.teamId, BOB()))?.serviceUserId).toBe(
      h.seed.users[1]?.id,
    );
    // Home is published again, now with "Disconnect your account".
    const published = await h.fake.waitForCall('views.publish', (c) => c.body.user_id === BOB());
    expect(JSON.stringify(published.body.view)).toContain('Disconnect your account');
  });
});

describe('DMs find the person by their own key', () => {
  it('Bob’s Slack e-mail differs from the service’s, yet with his own key he is told of assignments', async () => {
    const bob = h.users.bob;
    h.fake.users.set(bob.id, { ...bob, email: 'bobby@elsewhere.example' });
    h.worklink.deps.users.forget(h.teamId, bob.id);
    await h.worklink.store.lookups.clear(h.teamId);
    try {
      await command(`connect me ${keyOf('bob@example.com')}`);
      const website = h.seed.projects[0]!.projectId;
      await h.slack.slashCommand(`add Badges for the fair @bob in:${website}`, {
        userId: h.users.alice.id,
        channelId: 'D_ALICE',
      });
      const dm = await h.fake.waitForCall(
        'chat.postMessage',
        (c) =>
          (c.body.channel === bob.id || c.body.channel === 'D_BOB') &&
          String(c.body.text).includes('Badges for the fair'),
      );
      expect(String(dm.body.text)).toContain('assigned you');
    } finally {
      h.fake.users.set(bob.id, { ...bob });
      h.worklink.deps.users.forget(h.teamId, bob.id);
      await h.worklink.store.lookups.clear(h.teamId);
    }
  });
});
