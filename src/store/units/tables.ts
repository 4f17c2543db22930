/**
 * Every table store, by name: what the Store hands out and what a unit of work (tx.ts) is given
 * inside its transaction. Each engine builds one of these per connection (SQLite: once; on
 * PostgreSQL: over the pool, and again over each transaction).
 */
import type { ChannelFeedsStore } from '../tables/channel-feeds/contract.js';
import type { ChannelProjectsStore } from '../tables/channel-projects/contract.js';
import type { ConnectionsStore } from '../tables/connections/contract.js';
import type { HeldDmsStore } from '../tables/held-dms/contract.js';
import type { InstallationsStore } from '../tables/installations/contract.js';
import type { KnownProjectsStore } from '../tables/known-projects/contract.js';
import type { LeasesStore } from '../tables/leases/contract.js';
import type { LookupCacheStore } from '../tables/lookup-cache/contract.js';
import type { NotifySettingsStore } from '../tables/notify-settings/contract.js';
import type { OutboxStore } from '../tables/outbox/contract.js';
import type { PaceStore } from '../tables/pace/contract.js';
import type { PersonalKeysStore } from '../tables/personal-keys/contract.js';
import type { RemindersStore } from '../tables/reminders/contract.js';
import type { SeenEventsStore } from '../tables/seen-events/contract.js';
import type { SeenRequestsStore } from '../tables/seen-requests/contract.js';
import type { TaskCreatorsStore } from '../tables/task-creators/contract.js';
import type { TaskIndexStore } from '../tables/task-index/contract.js';
import type { TaskMessagesStore } from '../tables/task-messages/contract.js';
import type { TeamSettingsStore } from '../tables/team-settings/contract.js';
import type { UnfurlSettingsStore } from '../tables/unfurl-settings/contract.js';
import type { UserLinksStore } from '../tables/user-links/contract.js';
import type { WatchStateStore } from '../tables/watch-state/contract.js';

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
