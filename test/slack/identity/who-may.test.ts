/**
 * Who may do what, through signed Slack requests against the embedded service: the links
 * policy (members cannot re-link a channel or turn its feed off by default), `/work settings`,
 * the read-only policy, guests and Slack Connect people refused with the reason, a revoked
 * personal key falling back (its owner told once), and `/work status` hiding other people's
 * failed DMs from members.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from '../../../src/service/db.js';
import { PROJECT_BLOCK, PROJECT_INPUT } from '../../../src/slack/projects/form/fields.js';
import { VIEW } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { matchedRow } from '../../support/notify-rows.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());
afterEach(async () => {
  const { store } = h.worklink;
  await store.teamSettings.set(h.teamId, { members: 'attributed', links: 'admins' }, 'U_TEST');
  for (const k of await store.personalKeys.list(h.teamId)) {
    await store.personalKeys.delete(h.teamId, k.slackUserId);
  }
  for (const who of ['bob', 'carol'] as const) {
    const u = h.users[who];
    h.fake.users.set(u.id, { ...u, realName: u.realName });
    h.worklink.deps.users.forget(h.teamId, u.id);
  }
});

const website = () => h.seed.projects[0]!.projectId;
const onboarding = () => h.seed.projects[1]!.projectId;
const keyOf = (email: string) => h.seed.users.find((u) => u.email === email)?.apiKey ?? '';

async function command(text: string, userId: string, channelId = 'C_GENERAL') {
  const res = await h.slack.slashCommand(text, { userId, channelId });
  expect(res.status).toBe(200);
  return (await h.replyTo(res)).text ?? '';
}

/** The project form submitted by `userId`, answering with the modal's new view as text. */
async function newProject(userId: string, name: string) {
  const res = await h.slack.viewSubmission(
    {
      callbackId: VIEW.projectCreate,
      values: {
        [PROJECT_BLOCK.name]: { [PROJECT_INPUT.name]: { type: 'plain_text_input', value: name } },
      },
    },
    { userId },
  );
  expect(res.status).toBe(200);
  return JSON.stringify(res.json);
}

const projectNames = () =>
  sql<{ name: string }>(h.service.db, 'SELECT name FROM projects')
    .all()
    .map((p) => p.name);

/** Makes a demo person a guest, or someone of another organisation, in Slack. */
function become(who: 'bob' | 'carol', change: { isRestricted?: boolean; teamId?: string }) {
  const u = h.users[who];
  h.fake.users.set(u.id, { ...u, ...change });
  h.worklink.deps.users.forget(h.teamId, u.id);
}

describe('the links policy', () => {
  it('lets only admins re-link a channel or turn its feed off by default', async () => {
    const alice = h.users.alice.id;
    const bob = h.users.bob.id;
    await h.slack.slashCommand(`project link ${website()}`, {
      userId: alice,
      channelId: 'C_LINKS',
    });
    await h.waitFor(async () => h.worklink.store.channelProjects.get(h.teamId, 'C_LINKS'));
    expect(await command(`project link ${onboarding()}`, bob, 'C_LINKS')).toMatch(
      /^Sorry, in this workspace only Slack admins and owners can link channels/,
    );
    expect((await h.worklink.store.channelProjects.get(h.teamId, 'C_LINKS'))?.projectId).toBe(
      website(),
    );
    expect(await command('project unlink', bob, 'C_LINKS')).toMatch(/only Slack admins/);
    expect(await command('feed off', bob, 'C_LINKS')).toMatch(/only Slack admins/);

    // An admin lets everyone: Bob may now, a guest still may not.
    expect(await command('settings links everyone', bob)).toMatch(
      /^Sorry, only Slack workspace admins/,
    );
    expect(await command('settings links everyone', alice)).toMatch(/^Saved: `links everyone`/);
    become('carol', { isRestricted: true });
    expect(await command(`project link ${onboarding()}`, h.users.carol.id, 'C_LINKS')).toMatch(
      /guests and people of other organisations cannot change/,
    );
    await h.slack.slashCommand(`project link ${onboarding()}`, {
      userId: bob,
      channelId: 'C_LINKS',
    });
    await h.waitFor(
      async () =>
        (await h.worklink.store.channelProjects.get(h.teamId, 'C_LINKS'))?.projectId ===
        onboarding(),
    );
  });
});

describe('who may change things', () => {
  it('the read-only policy refuses members without a key and says how to connect one', async () => {
    await h.worklink.store.teamSettings.set(h.teamId, { members: 'read-only' }, 'U_ALICE');
    const answer = await newProject(h.users.bob.id, 'Read-only try');
    expect(answer).toContain('needs your own API key');
    expect(answer).toContain('/work connect me');
    expect(projectNames()).not.toContain('Read-only try');
    // With his own key, Bob may.
    expect(await command(`connect me ${keyOf('bob@example.com')}`, h.users.bob.id)).toMatch(
      /^Connected your own account/,
    );
    expect(await newProject(h.users.bob.id, 'Bob’s own project')).toContain('Created');
  });

  it('refuses a guest, saying why', async () => {
    become('carol', { isRestricted: true });
    const answer = await newProject(h.users.carol.id, 'Guest project');
    expect(answer).toContain('Guests of this Slack workspace can look things up');
    expect(answer).toContain('/work connect me');
    expect(await command('me', h.users.carol.id)).toMatch(/^As a guest you can look things up/);
  });

  it('refuses someone of another organisation (Slack Connect), saying why', async () => {
    become('bob', { teamId: 'T_OTHER_ORG' });
    const answer = await newProject(h.users.bob.id, 'Stranger project');
    expect(answer).toContain('You are from another Slack organisation');
  });
});

describe('a revoked personal key', () => {
  it('falls back to the workspace’s connection, and its owner is told once', async () => {
    const bob = h.users.bob.id;
    await command(`connect me ${keyOf('bob@example.com')}`, bob);
    expect(h.service.revokeKey(keyOf('bob@example.com'))).toBe(true);
    const first = await newProject(bob, 'With a revoked key');
    expect(first).toContain('no longer accepts your own API key');
    expect(first).toContain('Nothing was changed');
    const told = () =>
      h.fake
        .callsOf('chat.postMessage')
        .filter((c) => c.body.channel === bob && String(c.body.text).includes('your own API key'));
    await h.waitFor(() => told().length === 1);
    expect((await h.worklink.store.personalKeys.info(h.teamId, bob))?.failingSince).toBeDefined();

    // The next try goes through the workspace's connection; nobody is told again.
    expect(await newProject(bob, 'After the fallback')).toContain('Created');
    expect(await newProject(bob, 'Once more')).toContain('Created');
    expect(told()).toHaveLength(1);
    expect(await command('me', bob)).toMatch(/^:warning: The service stopped accepting your own/);
  });
});

describe('/work status', () => {
  it('shows members only their own failed DMs, admins everyone’s', async () => {
    await h.worklink.store.outbox.enqueue(
      [
        matchedRow(h.teamId, h.users.carol.id, {
          status: 'failed',
          lastError: 'carol could not be told',
          serviceUserName: 'Carol Chen',
          serviceUserEmail: 'carol@example.com',
        }),
        matchedRow(h.teamId, h.users.dan.id, {
          status: 'failed',
          lastError: 'dan could not be told',
          serviceUserName: 'Dan Diaz',
          serviceUserEmail: 'dan@example.com',
        }),
      ],
      'slack',
    );
    const alice = await command('status', h.users.alice.id);
    expect(alice).toContain('carol@example.com');
    expect(alice).toContain('dan@example.com');
    const dan = await command('status', h.users.dan.id);
    expect(dan).toContain('Your latest failed DMs');
    expect(dan).toContain('dan could not be told');
    expect(dan).not.toContain('carol');
    const bob = await command('status', h.users.bob.id);
    expect(bob).not.toContain('Carol Chen');
    expect(bob).not.toContain('dan@example.com');
  });
});

describe('App Home', () => {
  it('lists a person only the channel links of channels they are in', async () => {
    const { alice, bob } = h.users;
    h.fake.addChannel('C_OPEN', [alice.id, bob.id]);
    h.fake.addChannel('G_SECRET', [alice.id]);
    await h.worklink.store.linkChannel(
      h.teamId,
      'C_OPEN',
      { projectId: website(), projectName: 'Website relaunch' },
      alice.id,
    );
    await h.worklink.store.linkChannel(
      h.teamId,
      'G_SECRET',
      { projectId: onboarding(), projectName: 'Customer onboarding' },
      alice.id,
    );
    const homeOf = async (userId: string) => {
      h.fake.reset();
      await h.slack.event({ type: 'app_home_opened', user: userId, tab: 'home', channel: 'D1' });
      const published = await h.fake.waitForCall('views.publish', (c) => c.body.user_id === userId);
      return JSON.stringify(published.body.view);
    };
    const bobs = await homeOf(bob.id);
    expect(bobs).toContain('<#C_OPEN>');
    expect(bobs).not.toContain('G_SECRET');
    const alices = await homeOf(alice.id);
    expect(alices).toContain('<#C_OPEN>');
    expect(alices).toContain('<#G_SECRET>');
  });
});
