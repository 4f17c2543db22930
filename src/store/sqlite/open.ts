/**
 * The Store on SQLite (DATA_DIR/worklink.db): one better-sqlite3 connection in WAL mode,
 * migrated on open, one small synchronous module per table (each `Sync<ItsStore>`,
 * async-over-sync.ts), handed out in their async form. Units of work run one at a time
 * (one-at-a-time.ts).
 */
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { makePrivateDir } from '../../private-files.js';
import { openSqlite } from '../../sqlite.js';
import { type Store, storeUnits } from '../contract.js';
import { createSecretBox, loadSecretsKey } from '../crypto.js';
import { migrate } from '../migrations.js';
import { channelFeedsStore } from '../tables/channel-feeds/sqlite.js';
import { channelProjectsStore } from '../tables/channel-projects/sqlite.js';
import { connectionsStore } from '../tables/connections/sqlite.js';
import { heldDmsStore } from '../tables/held-dms/sqlite.js';
import { installationsStore } from '../tables/installations/sqlite.js';
import { knownProjectsStore } from '../tables/known-projects/sqlite.js';
import { leasesStore } from '../tables/leases/sqlite.js';
import { lookupCacheStore } from '../tables/lookup-cache/sqlite.js';
import { notifySettingsStore } from '../tables/notify-settings/sqlite.js';
import { outboxStore } from '../tables/outbox/sqlite.js';
import { paceStore } from '../tables/pace/sqlite.js';
import { personalKeysStore } from '../tables/personal-keys/sqlite.js';
import { remindersStore } from '../tables/reminders/sqlite.js';
import { seenEventsStore } from '../tables/seen-events/sqlite.js';
import { seenRequestsStore } from '../tables/seen-requests/sqlite.js';
import { taskCreatorsStore } from '../tables/task-creators/sqlite.js';
import { taskIndexStore } from '../tables/task-index/sqlite.js';
import { taskMessagesStore } from '../tables/task-messages/sqlite.js';
import { teamSettingsStore } from '../tables/team-settings/sqlite.js';
import { unfurlSettingsStore } from '../tables/unfurl-settings/sqlite.js';
import { userLinksStore } from '../tables/user-links/sqlite.js';
import { watchStateStore } from '../tables/watch-state/sqlite.js';
import type { Tables } from '../units/tables.js';
import { asyncStore, atOnce, type Caller } from './async-over-sync.js';
import { OneAtATime } from './one-at-a-time.js';

export const DB_FILE = 'worklink.db';

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
  const db = openSqlite(join(dataDir, DB_FILE), migrate);
  const outbox = outboxStore(db);
  const sync = {
    connections: connectionsStore(db, secrets),
    installations: installationsStore(db, secrets),
    channelProjects: channelProjectsStore(db),
    knownProjects: knownProjectsStore(db),
    channelFeeds: channelFeedsStore(db),
    outbox,
    seenEvents: seenEventsStore(db),
    seenRequests: seenRequestsStore(db),
    userLinks: userLinksStore(db),
    lookups: lookupCacheStore(db),
    taskMessages: taskMessagesStore(db),
    taskIndex: taskIndexStore(db),
    notifySettings: notifySettingsStore(db),
    heldDms: heldDmsStore(db, outbox),
    taskCreators: taskCreatorsStore(db),
    reminders: remindersStore(db),
    watchState: watchStateStore(db),
    leases: leasesStore(db),
    pace: paceStore(db),
    personalKeys: personalKeysStore(db, secrets),
    teamSettings: teamSettingsStore(db),
    unfurlSettings: unfurlSettingsStore(db),
  };
  const tables = (caller: Caller): Tables => ({
    connections: asyncStore(sync.connections, caller),
    installations: asyncStore(sync.installations, caller),
    channelProjects: asyncStore(sync.channelProjects, caller),
    knownProjects: asyncStore(sync.knownProjects, caller),
    channelFeeds: asyncStore(sync.channelFeeds, caller),
    outbox: asyncStore(sync.outbox, caller, ['changed', 'onChange']),
    seenEvents: asyncStore(sync.seenEvents, caller),
    seenRequests: asyncStore(sync.seenRequests, caller),
    userLinks: asyncStore(sync.userLinks, caller),
    lookups: asyncStore(sync.lookups, caller),
    taskMessages: asyncStore(sync.taskMessages, caller),
    taskIndex: asyncStore(sync.taskIndex, caller),
    notifySettings: asyncStore(sync.notifySettings, caller),
    heldDms: asyncStore(sync.heldDms, caller),
    taskCreators: asyncStore(sync.taskCreators, caller),
    reminders: asyncStore(sync.reminders, caller),
    watchState: asyncStore(sync.watchState, caller),
    leases: asyncStore(sync.leases, caller),
    pace: asyncStore(sync.pace, caller),
    personalKeys: asyncStore(sync.personalKeys, caller),
    teamSettings: asyncStore(sync.teamSettings, caller),
    unfurlSettings: asyncStore(sync.unfurlSettings, caller),
  });
  const gate = new OneAtATime(db);
  // The one writer at a time is SQLite's own lock: nothing more to hold for a team.
  const run = gate.runner({ ...tables(atOnce), lockTeam: async () => {} });

  const store: Store = {
    dataDir,
    secrets,
    ...tables(gate.call),
    ...storeUnits(run),
    close: async () => {
      if (db.open) db.close();
    },
  };
  handles.set(store, db);
  return store;
}
