/**
 * The long-lived parts of a running Worklink, built once: notifications (outbox worker,
 * events receiver), the task index refresh, the watcher, live messages, channel feeds, the
 * digest, reminders, quiet hours and the activity hub with its listeners — and `deps`, which
 * hands handlers the PORTS to them (context/ports.ts), never the parts. The parts live on the
 * running app's handle (start/worklink.ts) and are started and stopped by the lifecycle.
 *
 * What a read or an event sees is told through `seen` and `seenChange` (activity/seen.ts); they need the live
 * messages, which need the notifications' bot clients — so `told` is filled in once the live
 * messages exist, before anything is started (nothing is told before start).
 */
import type { Logger } from '@slack/bolt';
import { type ActivityHub, createActivityHub } from '../../activity/hub.js';
import { type SeenEntry, type SeenParts, seen } from '../../activity/seen.js';
import type { AppConfig } from '../../config.js';
import type { LongLivedPart } from '../../long-lived-part.js';
import type { Metrics } from '../../metrics/metrics.js';
import { appMetrics } from '../../metrics/metrics-route.js';
import type { Store } from '../../store/index.js';
import { foundTaskSeen, queueFoundTask } from '../../sync/found-task.js';
import { TaskIndexRefresh } from '../../sync/task-index-refresh.js';
import { Watcher } from '../../sync/watcher.js';
import type { WorkClient } from '../../workapi/client.js';
import type { WorklinkDeps } from '../context/deps.js';
import { RouteRegistry } from '../context/routes.js';
import { ServiceDirectory } from '../context/service-directory.js';
import { SlackMatcher } from '../context/slack-matcher.js';
import { SlackUserDirectory } from '../context/slack-users.js';
import type { TeamReaders } from '../context/team-scope.js';
import type { WorkUrls } from '../context/work-clients.js';
import { WorkLinks } from '../context/work-links.js';
import { DigestScheduler } from '../digest/scheduler.js';
import { type ChannelFeedsPart, createChannelFeeds } from '../feeds/feeds-part.js';
import { createLiveMessages, type LiveMessages } from '../live/live-messages.js';
import { activityDms } from '../notify/activity-dms.js';
import { BURST_AFTER, dmGate, QuietRelease } from '../notify/dm-gate.js';
import { createNotifications, type Notifications } from '../notify/notifications.js';
import { ReminderScheduler } from '../remind/scheduler.js';
import { seenTelling, teamWorkClients } from './seen-telling.js';

/** The running app's parts (on its handle; tests wait on their `idle()`s and run them). */
export interface WorklinkParts {
  notifications: Notifications;
  activity: ActivityHub;
  live: LiveMessages;
  feeds: ChannelFeedsPart;
  indexRefresh: TaskIndexRefresh;
  watcher: Watcher;
  digest: DigestScheduler;
  reminders: ReminderScheduler;
  quietHours: QuietRelease;
  /** What the index, the watcher and the events saw (src/activity/seen.ts, bound). */
  seen: SeenEntry;
}

export interface PartsInput {
  config: AppConfig;
  store: Store;
  logger: Logger;
  workUrls: WorkUrls;
  /** Who this process is in the leases it takes on shared work (outbox rows, looks, rounds). */
  instanceId: string;
  /** The embedded service, when this process started it. */
  service?: { setEventsSubscriber(s: { url: string; secret: string }): void };
  /** Epoch ms now (tests: a fake clock). */
  clock?: () => number;
  /** The sandbox's demo people's own keys. */
  demoKeys?: WorklinkDeps['demoKeys'];
}

export interface BuiltParts {
  deps: WorklinkDeps;
  parts: WorklinkParts;
  /** Prometheus numbers, when wanted (served by start/worklink.ts). */
  metrics?: Metrics;
  /** Started in this order once the app listens; stopped newest first. */
  startOrder: LongLivedPart[];
}

export function buildParts(input: PartsInput): BuiltParts {
  const { config, store, logger, instanceId, clock } = input;
  const now = () => clock?.() ?? Date.now();
  // "Open in …" addresses: the settings' templates, else the embedded service's pages.
  const links = new WorkLinks({
    settings: config.links,
    embeddedOrigin: config.workApi ? undefined : new URL(input.workUrls.baseUrl).origin,
  });
  const activity = createActivityHub(logger);
  // Filled in once the live messages exist (below); nothing is told before start.
  const told: SeenParts = { activity, store, logger };
  const seenEntry: SeenEntry = (teamId, before, after, options) =>
    seen(told, teamId, before, after, options);
  // Prometheus numbers (src/metrics/), read late from the parts made below.
  const metrics = appMetrics(config, store, () => ({
    dms: notifications.worker.stats,
    looks: watcher.oldestLooks(),
  }));
  const workClients = teamWorkClients({ ...input, links, metrics, told });
  const workFor = async (teamId: string): Promise<WorkClient | undefined> => {
    const connection = await store.connections.get(teamId);
    return connection ? workClients.for(connection) : undefined;
  };
  const directory = new ServiceDirectory();
  const matcher = new SlackMatcher(store);
  const users = new SlackUserDirectory();

  const indexRefresh = new TaskIndexRefresh(
    // What the re-reads find changed is told by the index-feeding client (seen-telling.ts).
    { store, logger, now: clock, instanceId, workFor },
    config.workIndexReadsPerMinute,
  );
  const notifications = createNotifications(
    {
      config,
      store,
      logger,
      workClients,
      directory,
      matcher,
      service: input.service,
      instanceId,
      seen: seenEntry,
      activity,
      metrics,
      seenChange: seenTelling(told),
    },
    {
      // Each person's settings, quiet hours and bursts, applied as their DM goes out.
      gate: dmGate({ store, users, now, burst: burstRule(config) }),
      channelPacing: { intervalMs: config.waits?.dmChannelIntervalMs },
    },
  );
  const { slackFor } = notifications;
  // Tasks made outside Slack, found by looking (the hosted service sends no events).
  const watcher = new Watcher({
    store,
    logger,
    intervalMs: (config.workPollSeconds ?? 0) * 1000,
    now: clock,
    instanceId,
    workFor,
    announce: (teamId, task) => {
      const found = foundTaskSeen(task);
      seenEntry(teamId, undefined, found.task, { actor: found.actor });
      return queueFoundTask(store, teamId, task, {
        now: now(),
        graceMs: notifications.tuning.eventGraceMs,
      });
    },
  });
  // The watcher's open lists already feed the index; the refresh need not read them too.
  watcher.observe(indexRefresh);
  const readers: TeamReaders = { store, logger, slackFor, workFor, directory, matcher, links };
  const live = createLiveMessages({ ...readers, intervalMs: config.waits?.liveUpdateIntervalMs });
  told.live = live;
  const feeds = createChannelFeeds({
    ...readers,
    graceMs: () => notifications.tuning.eventGraceMs,
    now,
  });
  activity.on((teamId, a) => feeds.onActivity(teamId, a));
  // Task activity → DMs (assigned, comments, completed), through the outbox.
  activity.on(activityDms(readers));
  const digest = new DigestScheduler({
    store,
    logger,
    workClients,
    directory,
    matcher,
    users,
    slackFor,
    now: clock,
    instanceId,
    links,
  });
  const reminders = new ReminderScheduler({ store, logger, now: clock, workFor });
  const quietHours = new QuietRelease({ store, logger, now });

  const deps: WorklinkDeps = {
    config,
    store,
    logger,
    demoKeys: input.demoKeys,
    workUrls: input.workUrls,
    links,
    routes: new RouteRegistry(),
    users,
    workClients,
    directory,
    matcher,
    activity,
    live,
    feeds,
    indexRefresh,
    watcher,
    quietHours,
    clock,
    metrics,
  };
  deps.routes.add(notifications.eventsRoute);
  deps.routes.add({
    method: 'GET',
    path: '/healthz',
    handler: (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    },
  });
  const startOrder: LongLivedPart[] = [
    notifications,
    indexRefresh,
    digest,
    reminders,
    quietHours,
    watcher,
    live,
    feeds,
    // Stopped first: listeners under way finish before the parts they use stop (a feed
    // waiting out the events' grace posts now instead).
    {
      name: 'task activity',
      start: () => {},
      stop: () => {
        feeds.hurry();
        return activity.idle();
      },
    },
  ];
  const parts: WorklinkParts = {
    notifications,
    activity,
    live,
    feeds,
    indexRefresh,
    watcher,
    digest,
    reminders,
    quietHours,
    seen: seenEntry,
  };
  return { deps, parts, metrics, startOrder };
}

/** DM_BURST_SECONDS as the gate's rule; none when off. */
function burstRule(config: AppConfig) {
  const seconds = config.dmBurstSeconds ?? 0;
  return seconds > 0 ? { windowMs: seconds * 1000, after: BURST_AFTER } : undefined;
}
