/**
 * Notifications as one long-lived part of a running Worklink: the outbox worker, the
 * `POST /work/events` receiver and — with the embedded service — the service's event
 * subscription pointed at this app. Built by src/slack/start/worklink.ts, held in
 * `deps.notifications`, started and stopped by src/slack/start/lifecycle.ts.
 */

import { randomBytes } from 'node:crypto';
import type { Logger } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import type { SeenEntry } from '../../activity/seen.js';
import type { AppConfig } from '../../config.js';
import type { LongLivedPart } from '../../long-lived-part.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Store } from '../../store/index.js';
import type { RouteHandler } from '../context/routes.js';
import type { ServiceDirectory } from '../context/service-directory.js';
import type { SlackMatcher } from '../context/slack-matcher.js';
import type { WorkClientCache } from '../context/work-clients.js';
import {
  EVENTS_ROUTE,
  type EventsReceiverOptions,
  eventsHandler,
} from '../service-events/events-receiver.js';
import { appPreparer } from './prepare.js';
import { NotifyWorker } from './worker.js';
import type { NotifyWorkerOptions } from './worker-options.js';

/** Knobs tests and benchmarks may turn on a running app. */
export interface NotifyTuning {
  /** See EventsReceiverOptions.graceMs (default 5 s). */
  eventGraceMs: number;
}

export interface Notifications extends LongLivedPart {
  worker: NotifyWorker;
  tuning: NotifyTuning;
  /** The secret events must be signed with (WORK_EVENTS_SECRET or generated), if any. */
  readonly eventsSecret: string | undefined;
  /** The Web API client with a team's bot token (undefined when not installed). */
  slackFor(teamId: string): Promise<WebClient | undefined>;
  /** POST /work/events: the service's signed `task.created` deliveries. */
  readonly eventsRoute: { method: 'POST'; path: string; handler: RouteHandler };
}

export interface NotificationsDeps {
  config: AppConfig;
  store: Store;
  logger: Logger;
  workClients: WorkClientCache;
  directory: ServiceDirectory;
  matcher: SlackMatcher;
  /** Who this process is in the leases it takes (src/slack/start/worklink.ts). */
  instanceId?: string;
  /** Counts the DM clients' 429s (/metrics), when metrics are wanted. */
  metrics?: Pick<Metrics, 'watchClient'>;
  /** The embedded service, when this process started it. */
  service?: { setEventsSubscriber(s: { url: string; secret: string }): void };
  /** Told of each task an event announces (the task-change owner's `seen`). */
  seen?: SeenEntry;
  /** Tells what the service's task.updated events show changed (seen-comments.ts). */
  seenChange?: EventsReceiverOptions['seenChange'];
  /** Hears a comment a task.commented event brings. */
  activity?: EventsReceiverOptions['activity'];
}

/** Web API timeout for DM sends; the claim lease is three of these (held-leases.ts). */
const SEND_TIMEOUT_MS = 10_000;

export function createNotifications(
  deps: NotificationsDeps,
  workerOptions: Partial<NotifyWorkerOptions> = {},
): Notifications {
  const { config, store, logger } = deps;
  // With the embedded service and no configured secret, the app makes one up and tells the
  // service; an external service must be given WORK_EVENTS_SECRET.
  const eventsSecret =
    config.workEventsSecret ?? (deps.service ? randomBytes(32).toString('hex') : undefined);

  const clients = new Map<string, WebClient>();
  const slackFor = async (teamId: string): Promise<WebClient | undefined> => {
    let token: string | undefined;
    // An organisation-wide token serves many workspaces: its calls name the workspace.
    let orgWide = false;
    if (config.slack.mode === 'oauth') {
      const enterpriseId = (await store.connections.info(teamId))?.enterpriseId;
      const installation = await store.installations.find(teamId, enterpriseId);
      token = installation?.bot?.token;
      orgWide = installation?.isEnterpriseInstall === true;
    } else if (config.slack.mode === 'http' || config.slack.mode === 'socket') {
      token = config.slack.botToken;
    }
    if (!token) return undefined;
    const key = orgWide ? `${token}:${teamId}` : token;
    let client = clients.get(key);
    if (!client) {
      client = new WebClient(token, {
        slackApiUrl: config.slackApiUrl,
        logger,
        // The worker does its own retrying (per row, with reconciling) and 429 pausing.
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: SEND_TIMEOUT_MS,
        ...(orgWide ? { teamId } : {}),
      });
      clients.set(key, client);
      deps.metrics?.watchClient(client);
    }
    return client;
  };

  const worker = new NotifyWorker({
    outbox: store.outbox,
    pace: store.pace,
    instanceId: deps.instanceId,
    slackFor,
    prepare: appPreparer({
      store,
      workClients: deps.workClients,
      directory: deps.directory,
      matcher: deps.matcher,
      logger,
    }),
    logger,
    leaseMs: 3 * SEND_TIMEOUT_MS,
    ...workerOptions,
  });
  const tuning: NotifyTuning = { eventGraceMs: 5_000 };

  return {
    name: 'notifications',
    worker,
    slackFor,
    tuning,
    eventsSecret,
    eventsRoute: {
      method: 'POST',
      path: EVENTS_ROUTE,
      handler: eventsHandler({
        store,
        secret: () => eventsSecret,
        graceMs: () => tuning.eventGraceMs,
        logger,
        seen: deps.seen,
        seenChange: deps.seenChange,
        activity: deps.activity,
      }),
    },
    start(handle) {
      worker.start();
      if (deps.service && eventsSecret && handle.url) {
        deps.service.setEventsSubscriber({
          url: `${handle.url}${EVENTS_ROUTE}`,
          secret: eventsSecret,
        });
        logger.info(`The embedded service sends its events to ${handle.url}${EVENTS_ROUTE}.`);
      }
    },
    stop: () => worker.stop(),
  };
}
