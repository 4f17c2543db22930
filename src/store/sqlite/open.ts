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
import { channelFeedsStore } from '../channel-feeds.js';
import { channelProjectsStore } from '../channel-projects.js';
import { connectionsStore } from '../connections.js';
import { type Store, storeUnits } from '../contract.js';
import { createSecretBox, loadSecretsKey } from '../crypto.js';
import { heldDmsStore } from '../held-dms.js';
import { installationsStore } from '../installations.js';
import { knownProjectsStore } from '../known-projects.js';
import { leasesStore } from '../leases.js';
import { lookupCacheStore } from '../lookup-cache.js';
import { migrate } from '../migrations.js';
import { notifySettingsStore } from '../notify-settings.js';
import { outboxStore, seenEventsStore } from '../outbox.js';
import { paceStore } from '../pace.js';
import { personalKeysStore } from '../personal-keys.js';
import { remindersStore } from '../reminders.js';
import { seenRequestsStore } from '../seen-requests.js';
import { taskCreatorsStore } from '../task-creators.js';
import { taskIndexStore } from '../task-index.js';
import { taskMessagesStore } from '../task-messages.js';
import { teamSettingsStore } from '../team-settings.js';
import { unfurlSettingsStore } from '../unfurl-settings.js';
import type { Tables } from '../units/tables.js';
import { userLinksStore } from '../user-links.js';
import { watchStateStore } from '../watch-state.js';
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
