/**
 * One dispatcher for the features' listeners (src/slack/dispatch.ts), on a Bolt app over
 * HTTP with signed requests: each request reaches the listeners Bolt's own rules would pick
 * (command name, event type, action_id as text or pattern, a view's callback_id and
 * submission/closed, options constraints), all of them when several match; anything else
 * goes on to listeners registered on Bolt itself; a listener's failure reaches app.error.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ListenerTable } from '../../src/slack/dispatch.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { waitFor } from '../support/harness.js';
import { quietLogger } from '../support/quiet-logger.js';
import { SlackRequests } from '../support/slack-requests.js';

const SECRET = 'dispatch-test-signing-secret';

let app: App;
let fake: FakeSlack;
let slack: SlackRequests;
const heard: string[] = [];
const failures: string[] = [];

beforeAll(async () => {
  fake = await startFakeSlack();
  app = new App({
    token: 'xoxb-dispatch',
    botId: 'B_DISPATCH',
    botUserId: 'U_DISPATCH',
    receiver: new HTTPReceiver({ signingSecret: SECRET, logger: quietLogger }),
    clientOptions: { slackApiUrl: fake.apiUrl },
    logger: quietLogger,
  });
  app.error(async (e) => {
    failures.push(e.message);
  });
  const table = new ListenerTable();
  const on = table.registrarFor(app);
  on.command('/work', async ({ ack, command }) => {
    heard.push(`command ${command.text}`);
    await ack();
  });
  on.command('/other', async ({ ack }) => {
    heard.push('other command');
    await ack();
  });
  on.action(/^page:(\d+)$/, async ({ ack, context }) => {
    heard.push(`page ${context.actionIdMatches?.[1]}`);
    await ack();
  });
  on.action('press', async ({ ack }) => {
    heard.push('press one');
    await ack();
  });
  on.action({ action_id: 'press', block_id: 'b1' }, async () => {
    heard.push('press two');
  });
  on.action('boom', async ({ ack }) => {
    await ack();
    throw new Error('the boom listener failed');
  });
  on.view('form', async ({ ack }) => {
    heard.push('form submitted');
    await ack();
  });
  on.view({ callback_id: 'form', type: 'view_closed' }, async ({ ack }) => {
    heard.push('form closed');
    await ack();
  });
  on.options({ type: 'block_suggestion', action_id: 'pick' }, async ({ ack }) => {
    heard.push('options');
    await ack({ options: [] });
  });
  on.event('app_home_opened', async () => {
    heard.push('home opened');
  });
  // Registered on Bolt itself: reached only when no table listener matches.
  app.action('bolts-own', async ({ ack }) => {
    heard.push('bolt listener');
    await ack();
  });
  app.use(table.dispatch);
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  const { port } = server.address() as AddressInfo;
  slack = new SlackRequests({
    url: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: SECRET,
    fake,
    teamId: 'T_TEST',
    userId: 'U_ALICE',
    channelId: 'C_GENERAL',
  });
});
afterAll(async () => {
  await app?.stop();
  await fake?.close();
});
beforeEach(() => {
  heard.length = 0;
  failures.length = 0;
});

/** Until `n` listeners were heard (events are acked before their listeners run). */
const heardAll = (n: number) => waitFor(() => heard.length >= n || undefined);
const view = (callbackId: string) => ({ callbackId, values: {} });

it('a command, an action by pattern and a submission reach only their listeners', async () => {
  expect((await slack.slashCommand('list')).status).toBe(200);
  expect((await slack.blockAction({ actionId: 'page:3' })).status).toBe(200);
  expect((await slack.viewSubmission(view('form'))).status).toBe(200);
  await heardAll(3);
  expect(heard).toEqual(['command list', 'page 3', 'form submitted']);
});

it('runs every listener a request matches, and a closed view only where view_closed is asked', async () => {
  await slack.blockAction({ actionId: 'press', blockId: 'b1' });
  await slack.viewClosed({ callbackId: 'form' });
  await heardAll(3);
  expect(heard.sort()).toEqual(['form closed', 'press one', 'press two']);
});

it('options and events by their constraints; the rest goes on to Bolt’s own listeners', async () => {
  await slack.sendPayload({
    type: 'block_suggestion',
    action_id: 'pick',
    block_id: 'b1',
    value: 'ab',
    team: { id: 'T_TEST' },
    user: { id: 'U_ALICE', team_id: 'T_TEST' },
    api_app_id: 'A_TEST',
  });
  await slack.event({ type: 'app_home_opened', user: 'U_ALICE', tab: 'home' });
  await slack.blockAction({ actionId: 'bolts-own' });
  await heardAll(3);
  expect(heard.sort()).toEqual(['bolt listener', 'home opened', 'options']);
});

it('a listener that throws reaches the app’s error handler', async () => {
  expect((await slack.blockAction({ actionId: 'boom' })).status).toBe(200);
  await waitFor(() => failures.length > 0 || undefined);
  expect(failures).toEqual(['the boom listener failed']);
});
