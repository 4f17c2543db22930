/**
 * app_uninstalled and tokens_revoked forget the team: installation, API key, channel and user
 * links; its pending DMs fail with a reason (no token can send them any more).
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.js';
import { matchedRow } from '../../support/notify-rows.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());
beforeEach(async () => {
  await h.connect();
  await h.worklink.store.channelProjects.link(
    h.teamId,
    'C1',
    h.seed.projects[0].projectId,
    'U_ALICE',
  );
});

it('app_uninstalled deletes the connection and the channel links', async () => {
  const res = await h.slack.event({ type: 'app_uninstalled' });
  expect(res.status).toBe(200);
  await h.waitFor(async () => (await h.worklink.store.connections.info(h.teamId)) === undefined);
  expect(await h.worklink.store.channelProjects.listForTeam(h.teamId)).toEqual([]);
});

it('app_uninstalled drops the pending DMs with a reason and the user links', async () => {
  const { outbox, userLinks: links } = h.worklink.store;
  // Held back an hour, so the running worker leaves it pending until the event comes.
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
  const res = await h.slack.event({ type: 'app_uninstalled' });
  expect(res.status).toBe(200);
  await h.waitFor(async () => (await outbox.get(row.id))?.status === 'failed');
  expect((await outbox.get(row.id))?.lastError).toBe(
    'Worklink was removed from this Slack workspace (app_uninstalled)',
  );
  expect(await links.bySlackUser(h.teamId, 'U_BOB')).toEqual([]);
});

it('tokens_revoked for the bot token deletes the connection', async () => {
  const res = await h.slack.event({ type: 'tokens_revoked', tokens: { bot: ['U_WORKLINK'] } });
  expect(res.status).toBe(200);
  await h.waitFor(async () => (await h.worklink.store.connections.info(h.teamId)) === undefined);
});

it('tokens_revoked for user tokens only keeps everything', async () => {
  const res = await h.slack.event({ type: 'tokens_revoked', tokens: { oauth: ['U_BOB'] } });
  expect(res.status).toBe(200);
  // A later event is handled after this one; then the connection must still be there.
  await h.slack.event({ type: 'app_home_opened', user: 'U_BOB', tab: 'home', channel: 'D1' });
  expect(await h.worklink.store.connections.info(h.teamId)).toBeDefined();
});

it('an event for another team leaves this team alone', async () => {
  const res = await h.slack.event({ type: 'app_uninstalled' }, { teamId: 'T_OTHER' });
  expect(res.status).toBe(200);
  await h.slack.event({ type: 'app_home_opened', user: 'U_BOB', tab: 'home', channel: 'D1' });
  expect(await h.worklink.store.connections.info(h.teamId)).toBeDefined();
});
