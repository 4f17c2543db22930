/**
 * startWorklink: the whole Slack side in one call — the store, the work-management service
 * (external, or the embedded one), the long-lived parts and the ports to them (parts.ts), the
 * Bolt app for the mode, listening (listen.ts), then the parts started (lifecycle.ts) —
 * returning a handle to use and stop it. Used by src/start.ts, the sandbox, the tests and the
 * benchmarks.
 */
import { join } from 'node:path';
import type { App } from '@slack/bolt';
import type { AppConfig } from '../../config.js';
import { errMessage } from '../../error-message.js';
import { newInstanceId } from '../../instance-id.js';
import { createLogger, type Logger } from '../../logger.js';
import { serveMetrics } from '../../metrics/metrics-route.js';
import { rememberConfigSecrets } from '../../secrets.js';
import type { ServiceHandle } from '../../service/index.js';
import type { Store } from '../../store/index.js';
import { openConfiguredStore, StoreOpenError } from '../../store/open.js';
import { DatabaseUpkeep } from '../../store/upkeep.js';
import { buildApp, EVENTS_PATH, INSTALL_PATH } from '../app.js';
import type { Subcommand } from '../commands/router.js';
import type { WorklinkDeps } from '../context/deps.js';
import { unreadableInstallsSentence } from '../context/unreadable-installs.js';
import type { WorkUrls } from '../context/work-clients.js';
import { ConnectionShares } from './connection-limits.js';
import { DEFAULT_HTTP_LIMITS } from './http-guard.js';
import { Lifecycle } from './lifecycle.js';
import { checkBotToken, listen } from './listen.js';
import { buildParts, type WorklinkParts } from './parts.js';
import { ReplayWindow } from './replay-window.js';
import { StartupError } from './startup-error.js';

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
  /** What the handlers were given (ports, clients, caches). */
  deps: WorklinkDeps;
  /** The long-lived parts themselves (started and stopped with the app). */
  parts: WorklinkParts;
  stop(): Promise<void>;
}

/** Undoes what start-up did so far, newest first; one failure does not stop the rest. */
class Cleanup {
  private readonly steps: (() => Promise<void> | void)[] = [];
  private running: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  add(step: () => Promise<void> | void): void {
    this.steps.push(step);
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step();
        } catch (e) {
          this.logger.warn(`Stopping Worklink: ${errMessage(e)}`);
        }
      }
    })();
    return this.running;
  }
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
  const cleanup = new Cleanup(logger);
  rememberConfigSecrets(config);
  try {
    // Slack's answer to the token check is a network round trip (100–300 ms from a server to
    // Slack): asked first, it arrives while the store and the service open.
    const botCheck =
      config.slack.mode === 'oauth'
        ? undefined
        : checkBotToken(config.slack.botToken, config.slackApiUrl);
    // Awaited below; until then a refusal must not count as unhandled (e.g. if the store fails).
    botCheck?.catch(() => {});
    const store = await openConfiguredStore(config, logger).catch((e: unknown) => {
      throw e instanceof StoreOpenError ? new StartupError(e.message) : e;
    });
    cleanup.add(() => store.close());
    if (config.slack.mode === 'oauth') {
      const unreadable = await unreadableInstallsSentence(store, config, INSTALL_PATH);
      if (unreadable) logger.error(unreadable);
    }
    const { service, workUrls } = await serviceToUse(options, logger, cleanup);
    const botIdentity = await botCheck;

    const { deps, parts, metrics, startOrder } = buildParts({
      config,
      store,
      logger,
      workUrls,
      instanceId: newInstanceId(),
      service,
      clock: options.clock,
      demoKeys: options.demoKeys,
    });
    // The SQLite file: WAL checkpoints on a schedule, and a deleted or replaced file stops us.
    const upkeep = new DatabaseUpkeep({
      store,
      logger,
      onLost: (sentence) => {
        if (options.onFatal) options.onFatal(sentence);
        else void cleanup.run();
      },
    });
    const lifecycle = new Lifecycle([upkeep, ...startOrder]);

    const limits = { ...DEFAULT_HTTP_LIMITS, ...config.httpLimits };
    const shares = new ConnectionShares(limits);
    const replays = new ReplayWindow({
      store: store.seenRequests,
      logger,
      flushAfterMs: config.waits?.replayFlushMs,
    });
    // Runs after the app stopped taking requests, before the store closes: the last
    // requests taken in are recorded, so a replay of one after a restart is refused.
    cleanup.add(() => replays.flush());
    const app = buildApp(config, deps, {
      botIdentity,
      port,
      subcommands: options.subcommands,
      shares,
      replays,
    });
    const url = await listen(app, config, { port, host: options.host, limits, shares });
    cleanup.add(async () => {
      await app.stop();
    });
    const listening = { url, eventsUrl: url ? `${url}${EVENTS_PATH}` : '' };
    if (metrics) cleanup.add(await serveMetrics(metrics, config, deps.routes, options.host));
    cleanup.add(() =>
      lifecycle.stop((part, e) => logger.warn(`Stopping ${part.name}: ${errMessage(e)}`)),
    );
    await lifecycle.start(listening);
    logger.info(
      config.slack.mode === 'socket'
        ? `Worklink is connected to Slack in Socket Mode${url ? `; extra routes on ${url}` : ''}.`
        : `Worklink is listening on ${listening.eventsUrl} (${config.slack.mode} mode).`,
    );
    return {
      ...listening,
      store,
      service,
      workUrls,
      app,
      deps,
      parts,
      stop: () => cleanup.run(),
    };
  } catch (e) {
    await cleanup.run();
    throw e;
  }
}

/** The service given (options, then config); else the embedded one, started here. */
async function serviceToUse(
  options: StartWorklinkOptions,
  logger: Logger,
  cleanup: Cleanup,
): Promise<{ service?: ServiceHandle; workUrls: WorkUrls }> {
  const given = options.serviceUrls ?? options.config.workApi;
  if (given) return { workUrls: given };
  const { startService } = await import('../../service/index.js');
  const service = await startService({
    dbPath: join(options.config.dataDir, 'service.db'),
    port: 0,
    host: '127.0.0.1',
    logger,
  });
  cleanup.add(() => service.close());
  logger.info(`Embedded work-management service at ${service.url}`);
  return { service, workUrls: { baseUrl: service.baseUrl, altUrl: service.altUrl } };
}
