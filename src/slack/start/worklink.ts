/**
 * startWorklink: the whole Slack side in one call — store, work-management service (external
 * or embedded), the long-lived parts (deps), Bolt app for the mode, listening, then the
 * long-lived parts started (start/lifecycle.ts) — returning a handle to use and stop it.
 * Used by src/start.ts, the sandbox, the tests and the benchmarks.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { App } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { createActivityHub } from '../../activity/hub.js';
import { type SeenEntry, seen } from '../../activity/seen.js';
import type { AppConfig } from '../../config.js';
import { errMessage } from '../../error-message.js';
import { newInstanceId } from '../../instance-id.js';
import { createLogger, type Logger } from '../../logger.js';
import { appMetrics, serveMetrics } from '../../metrics/metrics-route.js';
import { rememberConfigSecrets } from '../../secrets.js';
import type { ServiceHandle } from '../../service/index.js';
import type { Store } from '../../store/index.js';
import { openConfiguredStore, StoreOpenError } from '../../store/open.js';
import { DatabaseUpkeep } from '../../store/upkeep.js';
import { foundTaskSeen, queueFoundTask } from '../../sync/found-task.js';
import { describeSeen } from '../../sync/seen-change.js';
import { TaskIndexRefresh } from '../../sync/task-index-refresh.js';
import { indexWorkClient } from '../../sync/task-sightings.js';
import { Watcher } from '../../sync/watcher.js';
import { buildApp, EVENTS_PATH, INSTALL_PATH } from '../app.js';
import type { Subcommand } from '../commands/router.js';
import type { WorklinkDeps } from '../context/deps.js';
import { RouteRegistry } from '../context/routes.js';
import { ServiceDirectory } from '../context/service-directory.js';
import { SlackMatcher } from '../context/slack-matcher.js';
import { SlackUserDirectory } from '../context/slack-users.js';
import { WorkClientCache, type WorkUrls } from '../context/work-clients.js';
import { createChannelFeeds } from '../feeds/channel-feeds.js';
import { WorkLinks } from '../links/addresses.js';
import { createLiveMessages, type LiveMessages } from '../live/live-messages.js';
import { activityDms } from '../notify/activity-dms.js';
import { commentMark } from '../notify/change-events.js';
import { DigestScheduler } from '../notify/digest/scheduler.js';
import { dmGate, QuietRelease } from '../notify/dm-gate.js';
import { createNotifications } from '../notify/notifications.js';
import { tellSeen, tellSeenComments } from '../notify/tell-seen.js';
import { ReminderScheduler } from '../remind/scheduler.js';
import { slackCode } from '../ui/error-text.js';
import { ConnectionShares } from './connection-limits.js';
import { applyServerLimits, DEFAULT_HTTP_LIMITS, serverOptions } from './http-guard.js';
import { Lifecycle } from './lifecycle.js';
import { unreadableInstallsSentence } from './unreadable-installs.js';

export interface StartWorklinkOptions {
  config: AppConfig;
  /** Overrides config.port; 0 picks a free port. */
  port?: number;
  /** Interface to listen on (default: all). */
  host?: string;
  /** The service to use; else config.workApi; else the embedded service is started. */
  serviceUrls?: WorkUrls;
  logger?: Logger;
  /** Epoch ms now, for the daily digest (tests: a fake clock). */
  clock?: () => number;
  /** More `/work` subcommands (tests: a probe that throws, …). */
  subcommands?: readonly Subcommand[];
  /**
   * Worklink cannot go on (its database file was deleted or replaced): one sentence. Default:
   * logged at error and Worklink stops; `worklink start` also exits 1.
   */
  onFatal?: (sentence: string) => void;
  /** The sandbox's demo people's own keys ("Connect your account" in one click). */
  demoKeys?: WorklinkDeps['demoKeys'];
}

export interface WorklinkHandle {
  /** Base URL of the app's HTTP server, e.g. http://127.0.0.1:54321 (empty in Socket Mode
   *  when no extra route is served). */
  url: string;
  /** Where Slack posts commands, interactivity and events: `${url}/slack/events`. */
  eventsUrl: string;
  store: Store;
  /** The embedded service, when this call started it. */
  service?: ServiceHandle;
  workUrls: WorkUrls;
  app: App;
  deps: WorklinkDeps;
  stop(): Promise<void>;
}

/** Thrown for start-up problems a person must fix; `message` is one sentence. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export async function startWorklink(options: StartWorklinkOptions): Promise<WorklinkHandle> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  if (config.slack.mode === 'sandbox') {
    throw new StartupError(
      'startWorklink needs Slack credentials; the sandbox starts it in HTTP mode with its own.',
    );
  }
  const port = options.port ?? config.port;
  const cleanup: (() => Promise<void> | void)[] = [];
  const runCleanup = async () => {
    for (const fn of cleanup.reverse()) {
      try {
        await fn();
      } catch (e) {
        logger.warn(`Stopping Worklink: ${errMessage(e)}`);
      }
    }
    cleanup.length = 0;
  };

  rememberConfigSecrets(config);
  try {
    const store = await openConfiguredStore(config, logger).catch((e: unknown) => {
      throw e instanceof StoreOpenError ? new StartupError(e.message) : e;
    });
    cleanup.push(() => store.close());
    if (config.slack.mode === 'oauth') {
      const unreadable = await unreadableInstallsSentence(store, config, INSTALL_PATH);
      if (unreadable) logger.error(unreadable);
    }

    let service: ServiceHandle | undefined;
    let workUrls = options.serviceUrls ?? config.workApi;
    if (!workUrls) {
      const { startService } = await import('../../service/index.js');
      service = await startService({
        dbPath: join(config.dataDir, 'service.db'),
        port: 0,
        host: '127.0.0.1',
        logger,
      });
      cleanup.push(() => service?.close());
      workUrls = { baseUrl: service.baseUrl, altUrl: service.altUrl };
      logger.info(`Embedded work-management service at ${service.url}`);
    }

    const botIdentity =
      config.slack.mode === 'oauth'
        ? undefined
        : await checkBotToken(config.slack.botToken, config.slackApiUrl);

    // Every team's client feeds the task index with what it reads (sync/task-sightings.ts).
    // "Open in …" addresses: the settings' templates, else the embedded service's pages.
    const links = new WorkLinks({
      settings: config.links,
      // No WORK_API_URL: the embedded service, started here or handed in (tests, sandbox).
      embeddedOrigin: config.workApi ? undefined : new URL(workUrls.baseUrl).origin,
    });
    // Prometheus numbers (src/metrics/), read late from the parts made below.
    const metrics = appMetrics(config, store.outbox, () => ({
      dms: notifications.worker.stats,
      looks: watcher.oldestLooks(),
    }));
    const workClients = new WorkClientCache(
      workUrls,
      { maxResponseBytes: config.workMaxResponseBytes, log: logger, timeCall: metrics?.timeCall },
      (client, teamId) =>
        indexWorkClient(
          client,
          teamId,
          store.taskIndex,
          (m) => logger.warn(m),
          // A read showed a known task changed: told once, as if made from Slack.
          (team, change) => {
            if (deps) tellSeen(deps, team, describeSeen(change));
          },
          (team, commentId) => store.seenEvents.markSeen(commentMark(team, commentId)),
          (team, taskId, comments) => {
            if (!deps) return;
            tellSeenComments(deps, team, taskId, comments).catch((e: unknown) =>
              logger.warn(`Comments of task ${taskId}: ${errMessage(e)}`),
            );
          },
        ),
      (teamId, apiKey) => links.rememberKey(teamId, apiKey),
    );
    // Who this process is in the leases it takes on shared work (outbox rows, looks, rounds).
    const instanceId = newInstanceId();
    const indexRefresh = new TaskIndexRefresh(
      {
        store,
        logger,
        now: options.clock,
        instanceId,
        // What the re-reads find changed is told by the index-feeding client (onSeen above).
        workFor: async (teamId) => {
          const connection = await store.connections.get(teamId);
          return connection ? workClients.for(connection) : undefined;
        },
      },
      config.workIndexReadsPerMinute,
    );
    const directory = new ServiceDirectory();
    const matcher = new SlackMatcher(store);
    const users = new SlackUserDirectory();
    const clock = options.clock ?? Date.now;
    const activity = createActivityHub(logger);
    // What the index, the watcher and the events saw: the task-change owner's `seen`.
    let live: LiveMessages | undefined;
    const seenEntry: SeenEntry = (teamId, before, now, opts) =>
      seen({ activity, live, store, logger }, teamId, before, now, opts);
    const notifications = createNotifications(
      {
        config,
        store,
        logger,
        workClients,
        directory,
        matcher,
        service,
        instanceId,
        seen: seenEntry,
        activity,
        tellSeen: (teamId, change, actor) => {
          if (deps) tellSeen(deps, teamId, change, actor);
        },
      },
      // Each person's settings and quiet hours, applied as their DM goes out.
      { gate: dmGate({ store, users, now: clock }) },
    );
    // Tasks made outside Slack, found by looking (the hosted service sends no events).
    const watcher = new Watcher({
      store,
      logger,
      intervalMs: (config.workPollSeconds ?? 0) * 1000,
      now: options.clock,
      instanceId,
      workFor: async (teamId) => {
        const connection = await store.connections.get(teamId);
        return connection ? workClients.for(connection) : undefined;
      },
      announce: (teamId, task) => {
        const now = options.clock?.() ?? Date.now();
        const found = foundTaskSeen(task);
        seenEntry(teamId, undefined, found.task, { actor: found.actor });
        return queueFoundTask(store, teamId, task, {
          now,
          graceMs: notifications.tuning.eventGraceMs,
        });
      },
    });
    // The watcher's open lists already feed the index; the refresh need not read them too.
    watcher.observe(indexRefresh);
    // Live messages read tasks through deps (work clients, users), built just below.
    let deps: WorklinkDeps | undefined;
    live = createLiveMessages({
      store,
      logger,
      slackFor: notifications.slackFor,
      deps: () => deps as WorklinkDeps,
    });
    const feeds = createChannelFeeds({
      store,
      logger,
      slackFor: notifications.slackFor,
      deps: () => deps as WorklinkDeps,
      graceMs: () => notifications.tuning.eventGraceMs,
      now: () => options.clock?.() ?? Date.now(),
    });
    activity.on((teamId, a) => feeds.onActivity(teamId, a));
    deps = {
      config,
      store,
      logger,
      demoKeys: options.demoKeys,
      workUrls,
      links,
      routes: new RouteRegistry(),
      users,
      workClients,
      directory,
      matcher,
      notifications,
      live,
      activity,
      feeds,
      indexRefresh,
      watcher,
      service,
      clock: options.clock,
      metrics,
    };
    // Every long-lived part, started once the app listens and stopped before it closes.
    const digest = new DigestScheduler({
      store,
      logger,
      workClients,
      directory,
      matcher,
      users: deps.users,
      slackFor: (teamId) => notifications.slackFor(teamId),
      now: options.clock,
      instanceId,
      links,
    });
    deps.digest = digest;
    const reminders = new ReminderScheduler({
      store,
      logger,
      now: options.clock,
      workFor: async (teamId) => {
        const connection = await store.connections.get(teamId);
        return connection ? workClients.for(connection) : undefined;
      },
    });
    deps.reminders = reminders;
    const quietHours = new QuietRelease({ store, logger, now: clock });
    deps.quietHours = quietHours;
    // Task activity → DMs (assigned, comments, completed), through the outbox.
    activity.on(
      activityDms({
        store,
        logger,
        slackFor: notifications.slackFor,
        workFor: async (teamId) => {
          const connection = await store.connections.get(teamId);
          return connection ? workClients.for(connection) : undefined;
        },
        directory,
        matcher,
        links,
      }),
    );
    // The SQLite file: WAL checkpoints on a schedule, and a deleted or replaced file stops us.
    const upkeep = new DatabaseUpkeep({
      store,
      logger,
      onLost: (sentence) => {
        if (options.onFatal) options.onFatal(sentence);
        else void runCleanup();
      },
    });
    const lifecycle = new Lifecycle([
      upkeep,
      notifications,
      indexRefresh,
      digest,
      reminders,
      quietHours,
      watcher,
      live,
      feeds,
      // Stopped first: listeners under way finish before the parts they use stop.
      { name: 'task activity', start: () => {}, stop: () => activity.idle() },
    ]);
    deps.routes.add(notifications.eventsRoute);
    deps.routes.add({
      method: 'GET',
      path: '/healthz',
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      },
    });

    const limits = { ...DEFAULT_HTTP_LIMITS, ...config.httpLimits };
    const shares = new ConnectionShares(limits);
    const app = buildApp(config, deps, {
      botIdentity,
      port,
      subcommands: options.subcommands,
      shares,
    });
    let url = '';
    if (config.slack.mode === 'socket') {
      await app.start();
      cleanup.push(async () => {
        await app.stop();
      });
      const routeServer = socketModeServer(app);
      if (routeServer) applyServerLimits(routeServer, limits);
      url = socketModeUrl(app, port);
    } else {
      const server = (await app.start(
        { port, host: options.host },
        serverOptions(limits),
      )) as Server;
      applyServerLimits(server, limits, shares);
      cleanup.push(async () => {
        await app.stop();
      });
      url = serverUrl(server, options.host);
    }
    const handle = { url, eventsUrl: url ? `${url}${EVENTS_PATH}` : '' };
    if (metrics) cleanup.push(await serveMetrics(metrics, config, deps.routes, options.host));
    cleanup.push(() =>
      lifecycle.stop((part, e) => logger.warn(`Stopping ${part.name}: ${errMessage(e)}`)),
    );
    await lifecycle.start(handle);
    logger.info(
      config.slack.mode === 'socket'
        ? `Worklink is connected to Slack in Socket Mode${url ? `; extra routes on ${url}` : ''}.`
        : `Worklink is listening on ${handle.eventsUrl} (${config.slack.mode} mode).`,
    );

    let stopping: Promise<void> | undefined;
    return {
      ...handle,
      store,
      service,
      workUrls,
      app,
      deps,
      stop: () => {
        stopping ??= runCleanup();
        return stopping;
      },
    };
  } catch (e) {
    await runCleanup();
    throw e;
  }
}

/** auth.test up front: a wrong token stops start-up with one sentence, not a later 401. */
async function checkBotToken(
  token: string,
  slackApiUrl: string | undefined,
): Promise<{ botId: string; botUserId: string }> {
  const client = new WebClient(token, {
    slackApiUrl,
    retryConfig: { retries: 1, minTimeout: 500 },
    timeout: 10_000,
  });
  try {
    const result = await client.auth.test();
    if (!result.bot_id || !result.user_id) {
      throw new StartupError('SLACK_BOT_TOKEN is not a bot token (auth.test named no bot).');
    }
    return { botId: result.bot_id, botUserId: result.user_id };
  } catch (e) {
    if (e instanceof StartupError) throw e;
    const code = slackCode(e);
    throw new StartupError(
      code
        ? `SLACK_BOT_TOKEN was refused by Slack (${code}).`
        : `Slack could not be reached to check SLACK_BOT_TOKEN (${errMessage(e)}).`,
    );
  }
}

function serverUrl(server: Server, host: string | undefined): string {
  const address = server.address() as AddressInfo;
  let shown = host && host !== '0.0.0.0' && host !== '::' ? host : '127.0.0.1';
  if (shown.includes(':')) shown = `[${shown}]`;
  return `http://${shown}:${address.port}`;
}

/** Socket Mode's receiver runs its own HTTP server for extra routes (when there are any). */
function socketModeServer(app: App): Server | undefined {
  return (app as unknown as { receiver?: { httpServer?: Server } }).receiver?.httpServer;
}

/** Where Socket Mode's route server listens. */
function socketModeUrl(app: App, fallbackPort: number): string {
  const address = socketModeServer(app)?.address() as AddressInfo | null | undefined;
  return address ? `http://127.0.0.1:${address.port}` : `http://127.0.0.1:${fallbackPort}`;
}
