/**
 * The Store on PostgreSQL (DATABASE_URL): one pg Pool, the schema migrated on open under an
 * advisory lock (migrations.ts), one small module per table. A table module is built over a
 * `Sql` — the pool, or one transaction — so a unit of work (src/store/units/) is given the
 * table stores built over its transaction.
 */
import type { Logger } from '../../logger.js';
import { type Store, storeUnits } from '../contract.js';
import type { SecretBox } from '../crypto.js';
import { pgChannelFeedsStore } from '../tables/channel-feeds/pg.js';
import { pgChannelProjectsStore } from '../tables/channel-projects/pg.js';
import { pgConnectionsStore } from '../tables/connections/pg.js';
import { pgHeldDmsStore } from '../tables/held-dms/pg.js';
import { pgInstallationsStore } from '../tables/installations/pg.js';
import { pgKnownProjectsStore } from '../tables/known-projects/pg.js';
import { RecentlyRemembered } from '../tables/known-projects/recently.js';
import { pgLeasesStore } from '../tables/leases/pg.js';
import { pgLookupCacheStore } from '../tables/lookup-cache/pg.js';
import { pgNotifySettingsStore } from '../tables/notify-settings/pg.js';
import { pgOutboxStore } from '../tables/outbox/pg.js';
import { pgPaceStore } from '../tables/pace/pg.js';
import { pgPersonalKeysStore } from '../tables/personal-keys/pg.js';
import { pgRemindersStore } from '../tables/reminders/pg.js';
import { pgSeenEventsStore } from '../tables/seen-events/pg.js';
import { pgSeenRequestsStore } from '../tables/seen-requests/pg.js';
import { pgTaskCreatorsStore } from '../tables/task-creators/pg.js';
import { fillWords, pgTaskIndexStore } from '../tables/task-index/pg.js';
import { pgTaskMessagesStore } from '../tables/task-messages/pg.js';
import { pgTeamSettingsStore } from '../tables/team-settings/pg.js';
import { pgUnfurlSettingsStore } from '../tables/unfurl-settings/pg.js';
import { pgUserLinksStore } from '../tables/user-links/pg.js';
import { pgWatchStateStore } from '../tables/watch-state/pg.js';
import type { Tables } from '../units/tables.js';
import type { RunInTx } from '../units/tx.js';
import { named, openPgDb, type PgDb, type Sql } from './db.js';
import { migratePg } from './migrations.js';

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
  const recentProjects = new RecentlyRemembered();
  /** Every table store over `sql`: the pool, or one transaction. */
  const tables = (sql: Sql): Tables => {
    const outbox = pgOutboxStore(sql);
    return {
      connections: pgConnectionsStore(sql, secrets),
      installations: pgInstallationsStore(sql, secrets),
      channelProjects: pgChannelProjectsStore(sql),
      knownProjects: pgKnownProjectsStore(sql, recentProjects, sql === db),
      channelFeeds: pgChannelFeedsStore(sql),
      outbox,
      seenEvents: pgSeenEventsStore(sql),
      seenRequests: pgSeenRequestsStore(sql),
      userLinks: pgUserLinksStore(sql),
      lookups: pgLookupCacheStore(sql),
      taskMessages: pgTaskMessagesStore(sql),
      taskIndex: pgTaskIndexStore(sql),
      notifySettings: pgNotifySettingsStore(sql),
      heldDms: pgHeldDmsStore(sql, outbox),
      taskCreators: pgTaskCreatorsStore(sql),
      reminders: pgRemindersStore(sql),
      watchState: pgWatchStateStore(sql),
      leases: pgLeasesStore(sql),
      pace: pgPaceStore(sql),
      personalKeys: pgPersonalKeysStore(sql, secrets),
      teamSettings: pgTeamSettingsStore(sql),
      unfurlSettings: pgUnfurlSettingsStore(sql),
    };
  };
  const run: RunInTx = (work) =>
    db.tx((sql) =>
      work({
        ...tables(sql),
        // An advisory lock, not the connection row's: a team not connected yet has no row,
        // and two first connects at once must take turns too.
        lockTeam: async (teamId) => {
          await sql.run(named('units.lockTeam', 'SELECT pg_advisory_xact_lock(hashtext($1))'), [
            `team:${teamId}`,
          ]);
        },
      }),
    );
  const store: Store = {
    dataDir: options.dataDir,
    secrets,
    ...tables(db),
    ...storeUnits(run),
    close: () => db.close(),
  };
  handles.set(store, db);
  return store;
}
