/**
 * The store, as the rest of Worklink sees it: the engine-neutral `Store` contract
 * (contract.ts), the types its tables speak, and `openStore` (SQLite). open.ts picks the
 * engine from the configuration; pg/index.ts is loaded only when PostgreSQL is used.
 */
export type { ChannelProject, ChannelProjectsStore } from './channel-projects.js';
export type { Connection, ConnectionInfo, ConnectionsStore } from './connections.js';
export type { Store, StoreUnits } from './contract.js';
export { DecryptError, type SecretBox } from './crypto.js';
export type { InstallationsStore } from './installations.js';
export type { KnownProject, KnownProjectsStore } from './known-projects.js';
export type { PersonalKey, PersonalKeyInfo, PersonalKeysStore } from './personal-keys.js';
export { DB_FILE, type OpenStoreOptions, openStore, sqliteDatabase } from './sqlite/open.js';
export type { IndexedTask, TaskIndexStore, TaskSighting } from './task-index.js';
export type {
  LinksPolicy,
  MembersPolicy,
  TeamSettings,
  TeamSettingsStore,
} from './team-settings.js';
export type { ChannelLinkInput } from './units/connect.js';
export type { ForgottenTeam, ForgottenUninstalledTeam } from './units/forget-team.js';
export type { Tables } from './units/tables.js';
export type { IncomingEvent, RowsFor } from './units/take-in-event.js';
export type { RunInTx, Tx } from './units/tx.js';
