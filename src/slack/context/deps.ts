/**
 * `deps` (WorklinkDeps): what every feature's `register(app, deps)` is handed by
 * src/slack/app.ts — config, store, logger, the clients and caches, and PORTS: the small
 * interfaces (task activity, live refresh, feed placement, index reads, watching, quiet hours,
 * clock) through which handlers reach the long-lived parts. The parts themselves
 * (notifications, channel feeds, live messages, the index refresh, the watcher, the digest,
 * reminders, quiet hours) are built by src/slack/start/parts.ts and live on the running app's
 * handle, never here — so nothing a handler imports imports its way back to this file.
 */
import type { Logger } from '@slack/bolt';
import type { TaskActivityHub } from '../../activity/hub.js';
import type { LiveRefresh } from '../../activity/seen.js';
import type { AppConfig } from '../../config.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Store } from '../../store/index.js';
import type { FeedPlacement, IndexReads, QuietHoursRelease, Watching } from './ports.js';
import type { RouteRegistry } from './routes.js';
import type { ServiceDirectory } from './service-directory.js';
import type { SlackMatcher } from './slack-matcher.js';
import type { SlackUserDirectory } from './slack-users.js';
import type { WorkClientCache, WorkUrls } from './work-clients.js';
import type { WorkLinks } from './work-links.js';

export interface WorklinkDeps {
  config: AppConfig;
  store: Store;
  logger: Logger;
  /** The work-management service this app talks to. */
  workUrls: WorkUrls;
  /** "Open in …" addresses of tasks and projects (context/work-links.ts). */
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
  /** Task activity (assigned, commented, completed, …): emitted by the task-change owner
   *  (tasks/changes.ts), heard by the DM and feed listeners (src/activity/hub.ts). */
  activity: TaskActivityHub;
  /** Keeps the messages posted about each task current (src/slack/live). */
  live: LiveRefresh;
  /** Channel feeds' placement of a task made by `/work add` (src/slack/feeds). */
  feeds: FeedPlacement;
  /** The task index's reads on demand (src/sync/task-index-refresh.ts). */
  indexRefresh: IndexReads;
  /** Whether the watcher looks for tasks made outside Slack (src/sync/watcher.ts). */
  watcher: Watching;
  /** Releases DMs held for quiet hours now (`/work notify quiet off`); absent in tests that
   *  build deps by hand. */
  quietHours?: QuietHoursRelease;
  /** Epoch ms now; tests give a fake clock (the daily digest). Default Date.now. */
  clock?: () => number;
  /** Prometheus numbers, when METRICS_TOKEN or METRICS_PORT is set (src/metrics/). */
  metrics?: Metrics;
  /**
   * The sandbox's demo people's own keys (their service accounts), offered in "Connect your
   * account" so they connect in one click; undefined everywhere else.
   */
  demoKeys?: (teamId: string, slackUserId: string) => Promise<string | undefined>;
}
