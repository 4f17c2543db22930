/**
 * The app's own store. `Store` is the engine-neutral, asynchronous contract: every table store
 * method returns a Promise, and a unit of work over several tables is one named method here
 * (one transaction inside the store), never a transaction opened by a caller.
 *
 * `openStore` is the SQLite implementation (DATA_DIR/worklink.db): one better-sqlite3
 * connection in WAL mode, migrated on open, with one small module per table. Each module is
 * synchronous (`Sync<ItsStore>`, see sync.ts) so the units of work below compose them inside
 * one better-sqlite3 transaction; the Store hands out their async form.
 */
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { makePrivateDir } from '../private-files.js';
import { openSqlite } from '../sqlite.js';
import { type ChannelFeedsStore, channelFeedsStore } from './channel-feeds.js';
import {
  type ChannelProject,
  type ChannelProjectsStore,
  channelProjectsStore,
} from './channel-projects.js';
import {
  type Connection,
  type ConnectionInfo,
  type ConnectionsStore,
  connectionsStore,
} from './connections.js';
import { createSecretBox, loadSecretsKey, type SecretBox } from './crypto.js';
import { type HeldDmsStore, heldDmsStore } from './held-dms.js';
import { type InstallationsStore, installationsStore } from './installations.js';
import { type KnownProjectsStore, knownProjectsStore } from './known-projects.js';
import { type LeasesStore, leasesStore } from './leases.js';
import { type LookupCacheStore, lookupCacheStore } from './lookup-cache.js';
import { migrate } from './migrations.js';
import { type NotifySettingsStore, notifySettingsStore } from './notify-settings.js';
import {
  type NewOutboxRow,
  type OutboxStore,
  outboxStore,
  type SeenEventsStore,
  seenEventsStore,
} from './outbox.js';
import { type PaceStore, paceStore } from './pace.js';
import { type PersonalKeysStore, personalKeysStore } from './personal-keys.js';
import { type RemindersStore, remindersStore } from './reminders.js';
import { type SeenRequestsStore, seenRequestsStore } from './seen-requests.js';
import { asyncStore } from './sync.js';
import { type TaskCreatorsStore, taskCreatorsStore } from './task-creators.js';
import { type TaskIndexStore, taskIndexStore } from './task-index.js';
import { type TaskMessagesStore, taskMessagesStore } from './task-messages.js';
import { type TeamSettingsStore, teamSettingsStore } from './team-settings.js';
import { type UnfurlSettingsStore, unfurlSettingsStore } from './unfurl-settings.js';
import { type UserLinksStore, userLinksStore } from './user-links.js';
import { type WatchStateStore, watchStateStore } from './watch-state.js';

export type { ChannelProject, ChannelProjectsStore } from './channel-projects.js';
export type { Connection, ConnectionInfo, ConnectionsStore } from './connections.js';
export { DecryptError, type SecretBox } from './crypto.js';
export type { InstallationsStore } from './installations.js';
export type { KnownProject, KnownProjectsStore } from './known-projects.js';
export type { PersonalKey, PersonalKeyInfo, PersonalKeysStore } from './personal-keys.js';
export type { IndexedTask, TaskIndexStore, TaskSighting } from './task-index.js';
export type {
  LinksPolicy,
  MembersPolicy,
  TeamSettings,
  TeamSettingsStore,
} from './team-settings.js';

export const DB_FILE = 'worklink.db';

/** What forgetTeam removed. */
export interface ForgottenTeam {
  connection: boolean;
  links: number;
  projects: number;
}

/** A channel's default project, set together with a connection (the sandbox's first run). */
export interface ChannelLinkInput {
  channelId: string;
  projectId: string;
  projectName: string;
}

/** A service event whose DMs are queued at most once (takeInEvent). */
export interface IncomingEvent {
  id: string;
  /** The service workspace it happened in: every Slack team connected to it is told. */
  workspaceId: string;
  projectId?: string;
}

export interface Store {
  readonly dataDir: string;
  /** Seals other secrets the same way (bound to a label); never log what it opens. */
  readonly secrets: SecretBox;
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
  /**
   * Forgets what Worklink keeps about a team's service workspace: the connection (API key),
   * people's own keys, channel links and feeds, known projects, the task index and the
   * watcher's state, in one transaction. Returns what was removed.
   */
  forgetTeam(teamId: string): Promise<ForgottenTeam>;
  /**
   * Forgets a team that removed Worklink (app uninstalled, bot token revoked): what forgetTeam
   * forgets, and its user links, e-mail lookups, settings and task messages too. Its pending
   * DMs can no longer be sent (no token) and fail with `reason`; the rows stay, so one DM per
   * assignee still holds should the team install Worklink again. One transaction.
   */
  forgetUninstalledTeam(
    teamId: string,
    reason: string,
    now?: number,
  ): Promise<ForgottenTeam & { userLinks: number; droppedDms: number }>;
  /**
   * Saves a team's connection, in one transaction with what goes with it: when the team was
   * connected to another service workspace, what forgetTeam forgets goes first (its links and
   * projects point at ids the new one does not have); `links` are then set as channels'
   * default projects (and their projects remembered). Returns the connection it replaced.
   */
  connect(
    connection: Connection,
    links?: readonly ChannelLinkInput[],
  ): Promise<{ previous?: ConnectionInfo; switched: boolean }>;
  /**
   * Makes `projectId` a channel's default project and remembers the project's name, in one
   * transaction. Returns the channel's link before, if it had one.
   */
  linkChannel(
    teamId: string,
    channelId: string,
    project: { projectId: string; projectName: string },
    linkedBy: string,
  ): Promise<{ before?: ChannelProject }>;
  /**
   * Takes in a service event once: marks its id seen and queues (mode 'ignore') the rows
   * `rowsFor` builds for each Slack team connected to its workspace, in one transaction.
   * `rowsFor` is plain computation (no I/O): it is given the team and the event's project
   * name as remembered. A replay changes nothing (`duplicate`).
   */
  takeInEvent(
    event: IncomingEvent,
    rowsFor: (team: ConnectionInfo, projectName: string | undefined) => NewOutboxRow[],
    now?: number,
  ): Promise<{ duplicate: boolean; teams: number; queued: number }>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** SECRETS_KEY (32 bytes); else DATA_DIR/secret.key, generated once. */
  secretsKey?: Buffer;
}

/** The better-sqlite3 connection behind each SQLite store (see sqliteDatabase). */
const handles = new WeakMap<Store, Database.Database>();

/**
 * The SQLite connection behind a store opened by openStore; undefined for any other engine.
 * An engine-specific escape hatch for tests and benchmarks (raw SQL, pragmas): app code
 * goes through the Store.
 */
export function sqliteDatabase(store: Store): Database.Database | undefined {
  return handles.get(store);
}

export function openStore(dataDir: string, options: OpenStoreOptions = {}): Store {
  makePrivateDir(dataDir);
  const secrets = createSecretBox(loadSecretsKey(dataDir, options.secretsKey));
  const dbPath = join(dataDir, DB_FILE);
  const db = openSqlite(dbPath, migrate);
  const connections = connectionsStore(db, secrets);
  const channelProjects = channelProjectsStore(db);
  const knownProjects = knownProjectsStore(db);
  const taskIndex = taskIndexStore(db);
  const watchState = watchStateStore(db);
  const userLinks = userLinksStore(db);
  const lookups = lookupCacheStore(db);
  const outbox = outboxStore(db);
  const seenEvents = seenEventsStore(db);
  const taskMessages = taskMessagesStore(db);
  const notifySettings = notifySettingsStore(db);
  const channelFeeds = channelFeedsStore(db);
  const heldDms = heldDmsStore(db, outbox);
  const taskCreators = taskCreatorsStore(db);
  const reminders = remindersStore(db);
  const personalKeys = personalKeysStore(db, secrets);
  const teamSettings = teamSettingsStore(db);
  const unfurlSettings = unfurlSettingsStore(db);

  const forgetTeam = db.transaction((teamId: string): ForgottenTeam => {
    taskIndex.deleteTeam(teamId);
    taskCreators.deleteTeam(teamId);
    reminders.deleteTeam(teamId);
    watchState.forgetTeam(teamId);
    channelFeeds.deleteTeam(teamId);
    personalKeys.deleteTeam(teamId);
    return {
      connection: connections.delete(teamId),
      links: channelProjects.deleteTeam(teamId),
      projects: knownProjects.deleteTeam(teamId),
    };
  });
  const forgetUninstalledTeam = db.transaction((teamId: string, reason: string, now: number) => {
    lookups.clear(teamId);
    notifySettings.deleteTeam(teamId);
    teamSettings.deleteTeam(teamId);
    unfurlSettings.deleteTeam(teamId);
    // Held DMs could no longer be sent.
    heldDms.deleteTeam(teamId);
    // Without a token its messages can no longer be updated.
    taskMessages.deleteTeam(teamId);
    return {
      ...forgetTeam(teamId),
      userLinks: userLinks.deleteTeam(teamId),
      droppedDms: outbox.failPending(teamId, reason, now),
    };
  });
  const connect = db.transaction((connection: Connection, links: readonly ChannelLinkInput[]) => {
    const previous = connections.info(connection.teamId);
    const switched = previous !== undefined && previous.workspaceId !== connection.workspaceId;
    if (switched) forgetTeam(connection.teamId);
    connections.save(connection);
    for (const link of links) {
      channelProjects.link(
        connection.teamId,
        link.channelId,
        link.projectId,
        connection.connectedBy,
      );
      knownProjects.remember(connection.teamId, link.projectId, link.projectName);
    }
    return { ...(previous ? { previous } : {}), switched };
  });
  const linkChannel = db.transaction(
    (
      teamId: string,
      channelId: string,
      project: { projectId: string; projectName: string },
      linkedBy: string,
    ) => {
      const before = channelProjects.get(teamId, channelId);
      knownProjects.remember(teamId, project.projectId, project.projectName);
      channelProjects.link(teamId, channelId, project.projectId, linkedBy);
      return before ? { before } : {};
    },
  );
  const takeInEvent = db.transaction(
    (
      event: IncomingEvent,
      rowsFor: (team: ConnectionInfo, projectName: string | undefined) => NewOutboxRow[],
      now: number,
    ) => {
      if (!seenEvents.markSeen(event.id, now)) return { duplicate: true, teams: 0, queued: 0 };
      const teams = connections.list().filter((c) => c.workspaceId === event.workspaceId);
      let queued = 0;
      for (const team of teams) {
        const projectName = event.projectId
          ? knownProjects.get(team.teamId, event.projectId)?.projectName
          : undefined;
        queued += outbox.enqueue(rowsFor(team, projectName), 'ignore', now).length;
      }
      return { duplicate: false, teams: teams.length, queued };
    },
  );

  const store: Store = {
    dataDir,
    secrets,
    connections: asyncStore(connections),
    installations: asyncStore(installationsStore(db, secrets)),
    channelProjects: asyncStore(channelProjects),
    knownProjects: asyncStore(knownProjects),
    channelFeeds: asyncStore(channelFeeds),
    outbox: asyncStore(outbox, ['changed', 'onChange']),
    seenEvents: asyncStore(seenEvents),
    seenRequests: asyncStore(seenRequestsStore(db)),
    userLinks: asyncStore(userLinks),
    lookups: asyncStore(lookups),
    taskMessages: asyncStore(taskMessages),
    taskIndex: asyncStore(taskIndex),
    notifySettings: asyncStore(notifySettings),
    heldDms: asyncStore(heldDms),
    taskCreators: asyncStore(taskCreators),
    reminders: asyncStore(reminders),
    watchState: asyncStore(watchState),
    leases: asyncStore(leasesStore(db)),
    pace: asyncStore(paceStore(db)),
    personalKeys: asyncStore(personalKeys),
    teamSettings: asyncStore(teamSettings),
    unfurlSettings: asyncStore(unfurlSettings),
    forgetTeam: async (teamId) => forgetTeam(teamId),
    forgetUninstalledTeam: async (teamId, reason, now = Date.now()) =>
      forgetUninstalledTeam(teamId, reason, now),
    connect: async (connection, links = []) => connect(connection, links),
    linkChannel: async (teamId, channelId, project, linkedBy) =>
      linkChannel(teamId, channelId, project, linkedBy),
    takeInEvent: async (event, rowsFor, now = Date.now()) => takeInEvent(event, rowsFor, now),
    close: async () => {
      if (db.open) db.close();
    },
  };
  handles.set(store, db);
  return store;
}
