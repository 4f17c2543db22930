/**
 * The app's own database (DATA_DIR/worklink.db): one better-sqlite3 connection in WAL mode,
 * migrated on open, with one small module per table, each built once here.
 */
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { makePrivateDir } from '../private-files.js';
import { openSqlite } from '../sqlite.js';
import { type ChannelProjectsStore, channelProjectsStore } from './channel-projects.js';
import { type ConnectionsStore, connectionsStore } from './connections.js';
import { createSecretBox, loadSecretsKey, type SecretBox } from './crypto.js';
import { type InstallationsStore, installationsStore } from './installations.js';
import { type KnownProjectsStore, knownProjectsStore } from './known-projects.js';
import { type LeasesStore, leasesStore } from './leases.js';
import { type LookupCacheStore, lookupCacheStore } from './lookup-cache.js';
import { migrate } from './migrations.js';
import { type NotifySettingsStore, notifySettingsStore } from './notify-settings.js';
import { type OutboxStore, outboxStore, type SeenEventsStore, seenEventsStore } from './outbox.js';
import { type PaceStore, paceStore } from './pace.js';
import { type SeenRequestsStore, seenRequestsStore } from './seen-requests.js';
import { type TaskIndexStore, taskIndexStore } from './task-index.js';
import { type TaskMessagesStore, taskMessagesStore } from './task-messages.js';
import { type UserLinksStore, userLinksStore } from './user-links.js';
import { type WatchStateStore, watchStateStore } from './watch-state.js';

export type { ChannelProject, ChannelProjectsStore } from './channel-projects.js';
export type { Connection, ConnectionInfo, ConnectionsStore } from './connections.js';
export { DecryptError, type SecretBox } from './crypto.js';
export type { InstallationsStore } from './installations.js';
export type { KnownProject, KnownProjectsStore } from './known-projects.js';
export type { IndexedTask, TaskIndexStore, TaskSighting } from './task-index.js';

export const DB_FILE = 'worklink.db';

export interface Store {
  readonly db: Database.Database;
  readonly dataDir: string;
  /** Seals other secrets the same way (bound to a label); never log what it opens. */
  readonly secrets: SecretBox;
  readonly connections: ConnectionsStore;
  readonly installations: InstallationsStore;
  readonly channelProjects: ChannelProjectsStore;
  readonly knownProjects: KnownProjectsStore;
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
  /** The Slack messages posted about each task, kept current (src/slack/notify/live-updates.ts). */
  readonly taskMessages: TaskMessagesStore;
  /** What Worklink knows of each task (search, my tasks, digest). */
  readonly taskIndex: TaskIndexStore;
  /** Which notifications each person gets (`/work notify`). */
  readonly notifySettings: NotifySettingsStore;
  /** What the watcher has seen in each watched project (src/sync/watcher.ts). */
  readonly watchState: WatchStateStore;
  /** Periodic work one instance does at a time: watched projects' looks, digest looks. */
  readonly leases: LeasesStore;
  /** Each team's DM pace and each DM channel's next free moment, shared by all instances. */
  readonly pace: PaceStore;
  /**
   * Forgets what Worklink keeps about a team's service workspace: the connection (API key),
   * channel links, known projects and the task index, in one transaction. Returns what was
   * removed.
   */
  forgetTeam(teamId: string): { connection: boolean; links: number; projects: number };
  /**
   * Forgets a team that removed Worklink (app uninstalled, bot token revoked): what forgetTeam
   * forgets, and its user links and e-mail lookups too. Its pending DMs can no longer be sent
   * (no token) and fail with `reason`; the rows stay, so one DM per assignee still holds
   * should the team install Worklink again. One transaction.
   */
  forgetUninstalledTeam(
    teamId: string,
    reason: string,
    now?: number,
  ): {
    connection: boolean;
    links: number;
    projects: number;
    userLinks: number;
    droppedDms: number;
  };
  close(): void;
}

export interface OpenStoreOptions {
  /** SECRETS_KEY (32 bytes); else DATA_DIR/secret.key, generated once. */
  secretsKey?: Buffer;
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
  const forgetTeam = db.transaction((teamId: string) => {
    taskIndex.deleteTeam(teamId);
    watchState.forgetTeam(teamId);
    return {
      connection: connections.delete(teamId),
      links: channelProjects.deleteTeam(teamId),
      projects: knownProjects.deleteTeam(teamId),
    };
  });
  const userLinks = userLinksStore(db);
  const lookups = lookupCacheStore(db);
  const outbox = outboxStore(db);
  const taskMessages = taskMessagesStore(db);
  const notifySettings = notifySettingsStore(db);
  const forgetUninstalledTeam = db.transaction((teamId: string, reason: string, now: number) => {
    lookups.clear(teamId);
    notifySettings.deleteTeam(teamId);
    // Without a token its messages can no longer be updated.
    taskMessages.deleteTeam(teamId);
    return {
      ...forgetTeam(teamId),
      userLinks: userLinks.deleteTeam(teamId),
      droppedDms: outbox.failPending(teamId, reason, now),
    };
  });
  return {
    db,
    dataDir,
    secrets,
    connections,
    installations: installationsStore(db, secrets),
    channelProjects,
    knownProjects,
    outbox,
    seenEvents: seenEventsStore(db),
    seenRequests: seenRequestsStore(db),
    userLinks,
    lookups,
    taskMessages,
    taskIndex,
    notifySettings,
    watchState,
    leases: leasesStore(db),
    pace: paceStore(db),
    forgetTeam: (teamId) => forgetTeam(teamId),
    forgetUninstalledTeam: (teamId, reason, now = Date.now()) =>
      forgetUninstalledTeam(teamId, reason, now),
    close: () => {
      if (db.open) db.close();
    },
  };
}
