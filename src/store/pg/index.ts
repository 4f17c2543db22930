/**
 * The Store on PostgreSQL (DATABASE_URL): one pg Pool, the schema migrated on open under an
 * advisory lock (migrations.ts), one small module per table. A table module is built over a
 * `Sql` — the pool, or one transaction — so each named unit of work below builds the modules
 * it needs over its transaction and runs them in it, as index.ts does on SQLite.
 */
import type { Logger } from '../../logger.js';
import type { SecretBox } from '../crypto.js';
import type { Store } from '../index.js';
import { pgChannelFeedsStore } from './channel-feeds.js';
import { pgChannelProjectsStore } from './channel-projects.js';
import { pgConnectionsStore } from './connections.js';
import { openPgDb, type PgDb, type Sql } from './db.js';
import { pgHeldDmsStore } from './held-dms.js';
import { pgInstallationsStore } from './installations.js';
import { pgKnownProjectsStore } from './known-projects.js';
import { pgLeasesStore } from './leases.js';
import { pgLookupCacheStore } from './lookup-cache.js';
import { migratePg } from './migrations.js';
import { pgNotifySettingsStore } from './notify-settings.js';
import { pgOutboxStore } from './outbox.js';
import { pgPaceStore } from './pace.js';
import { pgPersonalKeysStore } from './personal-keys.js';
import { pgRemindersStore } from './reminders.js';
import { pgSeenEventsStore, pgSeenRequestsStore } from './seen-requests.js';
import { pgTaskCreatorsStore } from './task-creators.js';
import { fillWords, pgTaskIndexStore } from './task-index.js';
import { pgTaskMessagesStore } from './task-messages.js';
import { pgTeamSettingsStore } from './team-settings.js';
import { pgUnfurlSettingsStore } from './unfurl-settings.js';
import { pgUserLinksStore } from './user-links.js';
import { pgWatchStateStore } from './watch-state.js';

export interface OpenPgStoreOptions {
  /** DATABASE_URL: postgres://user:password@host:port/database */
  url: string;
  /** DATA_DIR (the embedded service and the sandbox keep their files there). */
  dataDir: string;
  secrets: SecretBox;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  logger?: Logger;
}

/** The pool behind each PostgreSQL store (see pgDatabase). */
const handles = new WeakMap<Store, PgDb>();

/**
 * The connection pool behind a store opened by openPgStore; undefined for any other engine.
 * An engine-specific escape hatch for tests and benchmarks: app code goes through the Store.
 */
export function pgDatabase(store: Store): PgDb | undefined {
  return handles.get(store);
}

export async function openPgStore(options: OpenPgStoreOptions): Promise<Store> {
  const db = openPgDb(options.url, { max: options.poolSize, logger: options.logger });
  try {
    await migratePg(db);
    await fillWords(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  const { secrets } = options;
  /** What forgetTeam forgets, inside the caller's transaction. */
  const forgetTeam = async (tx: Sql, teamId: string) => {
    await pgTaskIndexStore(tx).deleteTeam(teamId);
    await pgTaskCreatorsStore(tx).deleteTeam(teamId);
    await pgRemindersStore(tx).deleteTeam(teamId);
    await pgWatchStateStore(tx).forgetTeam(teamId);
    await pgChannelFeedsStore(tx).deleteTeam(teamId);
    await pgPersonalKeysStore(tx, secrets).deleteTeam(teamId);
    return {
      connection: await pgConnectionsStore(tx, secrets).delete(teamId),
      links: await pgChannelProjectsStore(tx).deleteTeam(teamId),
      projects: await pgKnownProjectsStore(tx).deleteTeam(teamId),
    };
  };
  const outbox = pgOutboxStore(db);
  const store: Store = {
    dataDir: options.dataDir,
    secrets,
    connections: pgConnectionsStore(db, secrets),
    installations: pgInstallationsStore(db, secrets),
    channelProjects: pgChannelProjectsStore(db),
    knownProjects: pgKnownProjectsStore(db),
    channelFeeds: pgChannelFeedsStore(db),
    outbox,
    seenEvents: pgSeenEventsStore(db),
    seenRequests: pgSeenRequestsStore(db),
    userLinks: pgUserLinksStore(db),
    lookups: pgLookupCacheStore(db),
    taskMessages: pgTaskMessagesStore(db),
    taskIndex: pgTaskIndexStore(db),
    notifySettings: pgNotifySettingsStore(db),
    heldDms: pgHeldDmsStore(db, outbox),
    taskCreators: pgTaskCreatorsStore(db),
    reminders: pgRemindersStore(db),
    watchState: pgWatchStateStore(db),
    leases: pgLeasesStore(db),
    pace: pgPaceStore(db),
    personalKeys: pgPersonalKeysStore(db, secrets),
    teamSettings: pgTeamSettingsStore(db),
    unfurlSettings: pgUnfurlSettingsStore(db),
    forgetTeam: (teamId) => db.tx((tx) => forgetTeam(tx, teamId)),
    forgetUninstalledTeam: (teamId, reason, now = Date.now()) =>
      db.tx(async (tx) => {
        await pgLookupCacheStore(tx).clear(teamId);
        await pgNotifySettingsStore(tx).deleteTeam(teamId);
        await pgTeamSettingsStore(tx).deleteTeam(teamId);
        await pgUnfurlSettingsStore(tx).deleteTeam(teamId);
        // Held DMs could no longer be sent.
        await pgHeldDmsStore(tx, outbox).deleteTeam(teamId);
        // Without a token its messages can no longer be updated.
        await pgTaskMessagesStore(tx).deleteTeam(teamId);
        return {
          ...(await forgetTeam(tx, teamId)),
          userLinks: await pgUserLinksStore(tx).deleteTeam(teamId),
          droppedDms: await pgOutboxStore(tx).failPending(teamId, reason, now),
        };
      }),
    connect: (connection, links = []) =>
      db.tx(async (tx) => {
        const connections = pgConnectionsStore(tx, secrets);
        // Locks the team's row (when there is one) so two connects at once take turns.
        await tx.run('SELECT 1 FROM connections WHERE team_id = $1 FOR UPDATE', [
          connection.teamId,
        ]);
        const previous = await connections.info(connection.teamId);
        const switched = previous !== undefined && previous.workspaceId !== connection.workspaceId;
        if (switched) await forgetTeam(tx, connection.teamId);
        await connections.save(connection);
        const channels = pgChannelProjectsStore(tx);
        const projects = pgKnownProjectsStore(tx);
        for (const link of links) {
          await channels.link(
            connection.teamId,
            link.channelId,
            link.projectId,
            connection.connectedBy,
          );
          await projects.remember(connection.teamId, link.projectId, link.projectName);
        }
        return { ...(previous ? { previous } : {}), switched };
      }),
    linkChannel: (teamId, channelId, project, linkedBy) =>
      db.tx(async (tx) => {
        const channels = pgChannelProjectsStore(tx);
        const before = await channels.get(teamId, channelId);
        await pgKnownProjectsStore(tx).remember(teamId, project.projectId, project.projectName);
        await channels.link(teamId, channelId, project.projectId, linkedBy);
        return before ? { before } : {};
      }),
    takeInEvent: (event, rowsFor, now = Date.now()) =>
      db.tx(async (tx) => {
        // The event id's row is the lock: a second instance taking in the same event waits
        // here for the first one's commit, then finds it seen.
        if (!(await pgSeenEventsStore(tx).markSeen(event.id, now))) {
          return { duplicate: true, teams: 0, queued: 0 };
        }
        const teams = (await pgConnectionsStore(tx, secrets).list()).filter(
          (c) => c.workspaceId === event.workspaceId,
        );
        const projects = pgKnownProjectsStore(tx);
        const outbox = pgOutboxStore(tx);
        let queued = 0;
        for (const team of teams) {
          const projectName = event.projectId
            ? (await projects.get(team.teamId, event.projectId))?.projectName
            : undefined;
          queued += (await outbox.enqueue(rowsFor(team, projectName), 'ignore', now)).length;
        }
        return { duplicate: false, teams: teams.length, queued };
      }),
    close: () => db.close(),
  };
  handles.set(store, db);
  return store;
}
