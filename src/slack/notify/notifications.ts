/**
 * Notifications wired into a running Worklink: the outbox worker (started and stopped with
 * the app), the `POST /work/events` receiver, and — with the embedded service — the
 * service's event subscription pointed at this app. Set up once per app by
 * `setUpNotifications(deps)` (called from listeners/commands/links.ts's register).
 */
import { randomBytes } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import type { WorklinkDeps } from '../context.js';
import { EVENTS_ROUTE, eventsHandler } from './events-receiver.js';
import { appPreparer } from './prepare.js';
import { NotifyWorker, type NotifyWorkerOptions } from './worker.js';

export { type AssignmentReport, announceNewTask, describeAssignmentReport } from './announce.js';
export { EVENTS_ROUTE } from './events-receiver.js';

/** Knobs tests and benchmarks may turn on a running app. */
export interface NotifyTuning {
  /** See EventsReceiverOptions.graceMs (default 5 s). */
  eventGraceMs: number;
}

export interface Notifications {
  worker: NotifyWorker;
  tuning: NotifyTuning;
  /** The secret events must be signed with (WORK_EVENTS_SECRET or generated), if any. */
  readonly eventsSecret: string | undefined;
}

const byDeps = new WeakMap<WorklinkDeps, Notifications>();

/** The notifications of a running app (tests: `notificationsOf(h.worklink.deps)`). */
export function notificationsOf(deps: WorklinkDeps): Notifications | undefined {
  return byDeps.get(deps);
}

/** Web API timeout for DM sends; the claim lease is several of these. */
const SEND_TIMEOUT_MS = 10_000;

export function setUpNotifications(
  deps: WorklinkDeps,
  workerOptions: Partial<NotifyWorkerOptions> = {},
): Notifications {
  const existing = byDeps.get(deps);
  if (existing) return existing;
  const { config, store, logger } = deps;
  // With the embedded service and no configured secret, the app makes one up and tells the
  // service; an external service must be given WORK_EVENTS_SECRET.
  const eventsSecret =
    config.workEventsSecret ?? (deps.service ? randomBytes(32).toString('hex') : undefined);

  const clients = new Map<string, WebClient>();
  const slackFor = (teamId: string): WebClient | undefined => {
    let token: string | undefined;
    if (config.slack.mode === 'oauth') {
      const enterpriseId = store.connections.info(teamId)?.enterpriseId;
      token = store.installations.find(teamId, enterpriseId)?.bot?.token;
    } else if (config.slack.mode === 'http' || config.slack.mode === 'socket') {
      token = config.slack.botToken;
    }
    if (!token) return undefined;
    let client = clients.get(token);
    if (!client) {
      client = new WebClient(token, {
        slackApiUrl: config.slackApiUrl,
        logger,
        // The worker does its own retrying (per row, with reconciling) and 429 pausing.
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: SEND_TIMEOUT_MS,
      });
      clients.set(token, client);
    }
    return client;
  };

  const worker = new NotifyWorker({
    db: store.db,
    slackFor,
    prepare: appPreparer({ store, workClients: deps.workClients, logger }),
    logger,
    leaseMs: 6 * SEND_TIMEOUT_MS,
    ...workerOptions,
  });
  const tuning: NotifyTuning = { eventGraceMs: 5_000 };
  const notifications: Notifications = { worker, tuning, eventsSecret };
  byDeps.set(deps, notifications);

  deps.routes.add({
    method: 'POST',
    path: EVENTS_ROUTE,
    handler: eventsHandler({
      store,
      secret: () => eventsSecret,
      graceMs: () => tuning.eventGraceMs,
      logger,
    }),
  });
  deps.lifecycle.onStart((handle) => {
    worker.start();
    if (deps.service && eventsSecret && handle.url) {
      deps.service.setEventsSubscriber({
        url: `${handle.url}${EVENTS_ROUTE}`,
        secret: eventsSecret,
      });
      logger.info(`The embedded service sends its events to ${handle.url}${EVENTS_ROUTE}.`);
    }
  });
  deps.lifecycle.onStop(() => worker.stop());
  return notifications;
}
