/**
 * The whole app, for end-to-end tests: temp DATA_DIR, the embedded service with a seeded
 * demo workspace, a fake Slack Web API whose users are the demo users, and Worklink in HTTP
 * mode on a free port.
 *
 *   let h: Harness;
 *   beforeAll(async () => { h = await startHarness({ connect: true }); });
 *   afterAll(() => h.stop());
 *
 *   it('lists users', async () => {
 *     const res = await h.slack.slashCommand('users', { userId: h.users.bob.id });
 *     expect(res.status).toBe(200);                 // the ack
 *     const reply = await h.replyTo(res);           // what was posted to its response_url
 *     expect(reply.text).toContain('Alice Adams');
 *   });
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@slack/bolt';
import { type AppConfig, type LogLevelName, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { demoSlackUsers } from '../../src/sandbox/workspace.js';
import {
  type SeedResult,
  type ServiceHandle,
  seedDemoWorkspace,
  startService,
} from '../../src/service/index.js';
import type { Subcommand } from '../../src/slack/commands/router.js';
import { startWorklink, type WorklinkHandle } from '../../src/slack/start/worklink.js';
import type { Store } from '../../src/store/index.js';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import { SlackRequests, type SlackResponse } from './slack-requests.js';
import { SureWorkClient } from './sure-work.js';

export const TEAM_ID = 'T_TEST';
export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';

/** `configure` for a harness in OAuth mode (installations in the store, no bot token). */
export const oauthMode = (config: AppConfig): AppConfig => ({
  ...config,
  slack: {
    mode: 'oauth',
    clientId: '111.222',
    clientSecret: 'client-secret',
    stateSecret: 'state-secret',
    signingSecret: SIGNING_SECRET,
  },
});
export const BOT_TOKEN = 'xoxb-test-token';

/** The harness's AppConfig.waits: paces shortened (see startAppHarness). */
export const TEST_WAITS = { dmChannelIntervalMs: 100, liveUpdateIntervalMs: 50 } as const;

/** Slack users matching the seed's demo users by e-mail (the sandbox's list, with test ids). */
export const SLACK_USERS = demoSlackUsers({
  alice: { id: 'U_ALICE', tz: 'America/New_York' },
  bob: { id: 'U_BOB', tz: 'Europe/Berlin' },
  carol: { id: 'U_CAROL', tz: 'Asia/Tokyo' },
  dan: { id: 'U_DAN', tz: 'America/Los_Angeles' },
  erin: { id: 'U_ERIN', tz: 'UTC' },
});

export interface HarnessOptions {
  /** Connect the team with the seed's key before returning (default false). */
  connect?: boolean;
  /** SECRETS_KEY for the store; default: generated into the temp DATA_DIR. */
  secretsKey?: Buffer;
  /** Reuse a data directory (e.g. to restart on the same files); not removed by stop(). */
  dataDir?: string;
  /** Epoch ms now for the app (the digest, "overdue"); default the real clock. */
  clock?: () => number;
  /** Change the config before the app starts (e.g. the mode). */
  configure?: (config: AppConfig) => AppConfig;
  /** LOG_LEVEL of the app and of `logs` (default debug). */
  logLevel?: LogLevelName;
  /** More `/work` subcommands for this app (see test/slack/commands/router.test.ts). */
  subcommands?: readonly Subcommand[];
}

/** The app and its fakes, whichever service it talks to. */
export interface AppHarness {
  dataDir: string;
  config: AppConfig;
  fake: FakeSlack;
  /** Signed requests to the app, as Alice in C_GENERAL by default. */
  slack: SlackRequests;
  worklink: WorklinkHandle;
  seed: SeedResult;
  teamId: string;
  users: typeof SLACK_USERS;
  /** Every log line the app wrote (debug and up). */
  logs: string[];
  logger: Logger;
  /** A WorkClient with the seed's key, to check the service's side directly. */
  work: SureWorkClient;
  /** Connects the team with the seed's key (as Alice), straight into the store. */
  connect(): Promise<void>;
  /** The first message posted to this request's response_url. */
  replyTo(res: SlackResponse, timeoutMs?: number): Promise<ReplyBody>;
  /** All messages posted so far to this request's response_url. */
  repliesTo(res: SlackResponse): ReplyBody[];
  waitFor: typeof waitFor;
  stop(): Promise<void>;
}

/** The app against the embedded service (seeded with the demo workspace). */
export interface Harness extends AppHarness {
  service: ServiceHandle;
}

export interface ReplyBody {
  text?: string;
  blocks?: unknown[];
  response_type?: string;
  replace_original?: boolean;
  [k: string]: unknown;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  let service: ServiceHandle | undefined;
  const h = await startAppHarness(options, async (dataDir) => {
    service = await startService({ dbPath: join(dataDir, 'service.db'), port: 0 });
    const svc = service;
    return {
      seed: seedDemoWorkspace(svc.db),
      urls: { baseUrl: svc.baseUrl, altUrl: svc.altUrl },
      close: () => svc.close(),
    };
  });
  return { ...h, service: service! };
}

/** The service side of a harness: its seed, its two addresses and how to stop it. */
export interface ServiceSide {
  seed: SeedResult;
  urls: { baseUrl: string; altUrl: string };
  /**
   * Start Worklink as a user would, with configuration from this environment (plus the
   * harness's Slack settings) instead of handing it the addresses directly.
   */
  env?: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The app, a fake Slack and a service side (`start` makes it in the temp DATA_DIR). For
 * other service sides than the embedded one (see hosted-harness.ts).
 */
export async function startAppHarness(
  options: HarnessOptions,
  start: (dataDir: string) => Promise<ServiceSide>,
): Promise<AppHarness> {
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'worklink-test-'));
  const logs: string[] = [];
  const logger = createLogger(options.logLevel ?? 'debug', (line) => logs.push(line));
  const fake = await startFakeSlack({ teamId: TEAM_ID, users: Object.values(SLACK_USERS) });
  let side: ServiceSide | undefined;
  let worklink: WorklinkHandle | undefined;
  try {
    side = await start(dataDir);
    const { seed } = side;
    let config: AppConfig = side.env
      ? loadConfig({
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_SIGNING_SECRET: SIGNING_SECRET,
          SLACK_API_URL: fake.apiUrl,
          PORT: '0',
          DATA_DIR: dataDir,
          LOG_LEVEL: options.logLevel ?? 'debug',
          ...(options.secretsKey ? { SECRETS_KEY: options.secretsKey.toString('hex') } : {}),
          ...side.env,
        })
      : {
          slack: { mode: 'http', botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET },
          slackApiUrl: fake.apiUrl,
          port: 0,
          dataDir,
          secretsKey: options.secretsKey,
          logLevel: options.logLevel ?? 'debug',
        };
    // Slack's paces — one DM a second into a channel, live updates 1.2 s apart after a burst —
    // are the subject of their own tests (notify/worker, two-workers, live-updates); here they
    // would only make tests wait. `configure` may set other waits.
    config = { ...config, waits: TEST_WAITS };
    if (options.configure) config = options.configure(config);
    const workUrls = side.urls;
    worklink = await startWorklink({
      config,
      host: '127.0.0.1',
      ...(side.env ? {} : { port: 0, serviceUrls: workUrls }),
      logger,
      clock: options.clock,
      subcommands: options.subcommands,
    });
    const app = worklink;
    const svc = side;
    const slack = new SlackRequests({
      url: app.eventsUrl,
      signingSecret: SIGNING_SECRET,
      fake,
      teamId: TEAM_ID,
      userId: SLACK_USERS.alice.id,
      channelId: 'C_GENERAL',
    });
    const work = new SureWorkClient({ ...workUrls, apiKey: seed.apiKey });
    const idOf = (res: SlackResponse) => res.responseUrl?.split('/response/')[1];
    const harness: AppHarness = {
      dataDir,
      config,
      fake,
      slack,
      worklink: app,
      seed,
      teamId: TEAM_ID,
      users: SLACK_USERS,
      logs,
      logger,
      work,
      async connect() {
        await saveVerifiedConnection(app.store, seed, SLACK_USERS.alice.id, work);
      },
      async replyTo(res, timeoutMs = 10_000) {
        const id = idOf(res);
        if (!id) throw new Error('This request had no response_url.');
        return (await fake.waitForResponse((r) => r.id === id, timeoutMs)).body as ReplyBody;
      },
      repliesTo(res) {
        const id = idOf(res);
        return fake.responses.filter((r) => r.id === id).map((r) => r.body as ReplyBody);
      },
      waitFor,
      async stop() {
        await app.stop();
        await svc.close();
        await fake.close();
        if (ownDir) rmSync(dataDir, { recursive: true, force: true });
      },
    };
    if (options.connect) await harness.connect();
    return harness;
  } catch (e) {
    await worklink?.stop();
    await side?.close();
    await fake.close();
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
}

/**
 * What a successful `/work connect` stores, without Slack: verifies the seed's key on the
 * service and saves it as the connection of `teamId` (default TEAM_ID).
 */
export async function saveVerifiedConnection(
  store: Store,
  seed: Pick<SeedResult, 'apiKey' | 'workspaceName'>,
  connectedBy: string,
  work: SureWorkClient,
  teamId = TEAM_ID,
): Promise<void> {
  const v = await work.verify();
  await store.connections.save({
    teamId,
    workspaceId: v.workspaceId,
    workspaceName: v.workspaceName ?? seed.workspaceName,
    keyOwnerId: v.createdBy,
    apiKey: seed.apiKey,
    connectedBy,
    connectedAt: new Date().toISOString(),
  });
}

/**
 * Polls `fn` until it returns something other than undefined/false (or stops throwing),
 * then returns that. For async effects: `await waitFor(async () => (await store.outbox.counts()).sent === 2)`.
 */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<Exclude<T, undefined | false>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
      lastError = undefined;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      throw lastError instanceof Error
        ? lastError
        : new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
