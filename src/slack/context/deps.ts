/**
 * `deps` (WorklinkDeps): the per-app bag of long-lived parts — store, config, logger, caches,
 * notifications — built once by src/slack/start/worklink.ts and handed to every feature's
 * `register(app, deps)` by src/slack/app.ts.
 */

import type { Logger } from '@slack/bolt';
import type { ActivityHub } from '../../activity/hub.js';
import type { AppConfig } from '../../config.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Store } from '../../store/index.js';
import type { TaskIndexRefresh } from '../../sync/task-index-refresh.js';
import type { Watcher } from '../../sync/watcher.js';
import type { ChannelFeedsPart } from '../feeds/channel-feeds.js';
import type { WorkLinks } from '../links/addresses.js';
import type { LiveMessages } from '../live/live-messages.js';
import type { DigestScheduler } from '../notify/digest/scheduler.js';
import type { QuietRelease } from '../notify/dm-gate.js';
import type { Notifications } from '../notify/notifications.js';
import type { ReminderScheduler } from '../remind/scheduler.js';
import type { RouteRegistry } from './routes.js';
import type { ServiceDirectory } from './service-directory.js';
import type { SlackMatcher } from './slack-matcher.js';
import type { SlackUserDirectory } from './slack-users.js';
import type { WorkClientCache, WorkUrls } from './work-clients.js';

export interface WorklinkDeps {
  config: AppConfig;
  store: Store;
  logger: Logger;
  /** The work-management service this app talks to. */
  workUrls: WorkUrls;
  /** "Open in …" addresses of tasks and projects (links/addresses.ts). */
  links: WorkLinks;
  /** Extra HTTP routes served beside /slack/events (HTTP and OAuth modes; Socket Mode on PORT). */
  routes: RouteRegistry;
  /** users.info, cached: time zones and admin flags. */
  users: SlackUserDirectory;
  /** WorkClient per team + key, built lazily. */
  workClients: WorkClientCache;
  /** The service's users and project names, cached per team (DMs, cards, `/work link`). */
  directory: ServiceDirectory;
  /** Service user → Slack user (link, else e-mail), shared by DMs and cards. */
  matcher: SlackMatcher;
  /** The outbox worker and the events receiver (a long-lived part: start/lifecycle.ts). */
  notifications: Notifications;
  /** Task activity (assigned, commented, completed, …): emitted where it happens, heard by the
   *  DM and feed listeners (notify/activity.ts). */
  activity: ActivityHub;
  /** Keeps the messages posted about each task current: `live.taskChanged(team, task)`. */
  live: LiveMessages;
  /** Channel feeds: new tasks as cards, later activity in their threads (a long-lived part). */
  feeds: ChannelFeedsPart;
  /** Reads the task index again on a budget (a long-lived part: sync/task-index-refresh.ts). */
  indexRefresh: TaskIndexRefresh;
  /** Queues each person's daily digest at 09:00 their time (a long-lived part). */
  digest?: DigestScheduler;
  /** Queues reminders' DMs when they are due (a long-lived part). */
  reminders?: ReminderScheduler;
  /** Releases DMs held during people's quiet hours when the hours end (a long-lived part). */
  quietHours?: QuietRelease;
  /** Looks for tasks made outside Slack (a long-lived part: sync/watcher.ts). */
  watcher: Watcher;
  /** Epoch ms now; tests give a fake clock (the daily digest). Default Date.now. */
  clock?: () => number;
  /** Prometheus numbers, when METRICS_TOKEN or METRICS_PORT is set (src/metrics/). */
  metrics?: Metrics;
  /**
   * The sandbox's demo people's own keys (their service accounts), offered in "Connect your
   * account" so they connect in one click; undefined everywhere else.
   */
  demoKeys?: (teamId: string, slackUserId: string) => Promise<string | undefined>;
  /** The embedded service, when this process started it (else undefined). */
  service?: { setEventsSubscriber(s: { url: string; secret: string }): void };
}
