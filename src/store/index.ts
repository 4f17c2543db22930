/**
 * The store, as the rest of Worklink sees it: the engine-neutral `Store` contract
 * (contract.ts), what each table offers and the types it speaks (tables/<table>/contract.ts),
 * and `openStore` (SQLite). open.ts picks the engine from the configuration; pg/index.ts is
 * loaded only when PostgreSQL is used. Code outside src/store imports from here.
 */
export type { Store, StoreUnits } from './contract.js';
export { DecryptError, KEY_FILE, type SecretBox } from './crypto.js';
export { openConfiguredStore, StoreOpenError } from './open.js';
export { DB_FILE, type OpenStoreOptions, openStore, sqliteDatabase } from './sqlite/open.js';
export { CANNOT_SAVE, isStorageFault, reportStorageFault } from './storage-fault.js';
export * from './tables/channel-feeds/contract.js';
export * from './tables/channel-projects/contract.js';
export * from './tables/connections/contract.js';
export * from './tables/held-dms/contract.js';
export * from './tables/installations/contract.js';
export * from './tables/known-projects/contract.js';
export * from './tables/leases/contract.js';
export * from './tables/leases/run-leased.js';
export * from './tables/lookup-cache/contract.js';
export * from './tables/notify-settings/contract.js';
export * from './tables/outbox/contract.js';
export * from './tables/pace/contract.js';
export * from './tables/personal-keys/contract.js';
export * from './tables/reminders/contract.js';
export * from './tables/seen-events/contract.js';
export * from './tables/seen-requests/contract.js';
export * from './tables/task-creators/contract.js';
export * from './tables/task-index/contract.js';
export * from './tables/task-messages/contract.js';
export * from './tables/team-settings/contract.js';
export * from './tables/unfurl-settings/contract.js';
export * from './tables/user-links/contract.js';
export * from './tables/watch-state/contract.js';
export type { ChannelLinkInput } from './units/connect.js';
export type { ForgottenTeam, ForgottenUninstalledTeam } from './units/forget-team.js';
export type { Tables } from './units/tables.js';
export type { IncomingEvent, RowsFor } from './units/take-in-event.js';
export type { RunInTx, Tx } from './units/tx.js';
