/**
 * Every table store, by name: what the Store hands out and what a unit of work (tx.ts) is given
 * inside its transaction. Each engine builds one of these per connection (SQLite: once; on
 * PostgreSQL: over the pool, and again over each transaction).
 */
import type { ChannelFeedsStore } from '../channel-feeds.js';
import type { ChannelProjectsStore } from '../channel-projects.js';
import type { ConnectionsStore } from '../connections.js';
import type { HeldDmsStore } from '../held-dms.js';
import type { InstallationsStore } from '../installations.js';
import type { KnownProjectsStore } from '../known-projects.js';
import type { LeasesStore } from '../leases.js';
import type { LookupCacheStore } from '../lookup-cache.js';
import type { NotifySettingsStore } from '../notify-settings.js';
import type { OutboxStore, SeenEventsStore } from '../outbox.js';
import type { PaceStore } from '../pace.js';
import type { PersonalKeysStore } from '../personal-keys.js';
import type { RemindersStore } from '../reminders.js';
import type { SeenRequestsStore } from '../seen-requests.js';
import type { TaskCreatorsStore } from '../task-creators.js';
import type { TaskIndexStore } from '../task-index.js';
import type { TaskMessagesStore } from '../task-messages.js';
import type { TeamSettingsStore } from '../team-settings.js';
import type { UnfurlSettingsStore } from '../unfurl-settings.js';
import type { UserLinksStore } from '../user-links.js';
import type { WatchStateStore } from '../watch-state.js';

export interface Tables {
  readonly connections: ConnectionsStore;
  readonly installations: InstallationsStore;
  readonly channelProjects: ChannelProjectsStore;
  readonly knownProjects: KnownProjectsStore;
  /** Channel feeds (`/work feed`) and what each posted for each task. */
  readonly channelFeeds: ChannelFeedsStore;
  /** Assignment DMs waiting to be sent, one row per (team, task, person). */
  readonly outbox: OutboxStore;
  /** Ids of service events already taken in (a redelivery changes nothing). */
  readonly seenEvents: SeenEventsStore;
  /** Signed requests and Slack event ids already taken in (replays and retries). */
  readonly seenRequests: SeenRequestsStore;
  /** `/work link`: service e-mail → Slack user, set by admins. */
  readonly userLinks: UserLinksStore;
  /** users.lookupByEmail answers, remembered for a while. */
  readonly lookups: LookupCacheStore;
  /** The Slack messages posted about each task, kept current (src/slack/live/live-updates.ts). */
  readonly taskMessages: TaskMessagesStore;
  /** What Worklink knows of each task (search, my tasks, digest). */
  readonly taskIndex: TaskIndexStore;
  /** Which notifications each person gets (`/work notify`). */
  readonly notifySettings: NotifySettingsStore;
  /** DMs held during their recipient's quiet hours. */
  readonly heldDms: HeldDmsStore;
  /** Who created each task, as Slack knows it (comment and completion DMs). */
  readonly taskCreators: TaskCreatorsStore;
  /** People's reminders about tasks (`/work remind`). */
  readonly reminders: RemindersStore;
  /** What the watcher has seen in each watched project (src/sync/watcher.ts). */
  readonly watchState: WatchStateStore;
  /** Periodic work one instance does at a time: watched projects' looks, digest looks. */
  readonly leases: LeasesStore;
  /** Each team's DM pace and each DM channel's next free moment, shared by all instances. */
  readonly pace: PaceStore;
  /** Each person's own service key (`/work connect me`), sealed like the workspace key. */
  readonly personalKeys: PersonalKeysStore;
  /** Each team's admin policies (`/work settings`). */
  readonly teamSettings: TeamSettingsStore;
  /** Where each team's links to the service unfurl (`/work previews`). */
  readonly unfurlSettings: UnfurlSettingsStore;
}
