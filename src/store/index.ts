/**
 * The app's own database (DATA_DIR/worklink.db): one better-sqlite3 connection in WAL mode,
 * migrated on open, with one small module per table. Other modules that need a table of
 * their own (the notifications outbox) append a migration and build on `store.db`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type ChannelProjectsStore, channelProjectsStore } from './channelProjects.js';
import { type ConnectionsStore, connectionsStore } from './connections.js';
import { createSecretBox, loadSecretsKey, type SecretBox } from './crypto.js';
import { type InstallationsStore, installationsStore } from './installations.js';
import { type KnownProjectsStore, knownProjectsStore } from './knownProjects.js';
import { migrate } from './migrations.js';

export type { ChannelProject, ChannelProjectsStore } from './channelProjects.js';
export type { Connection, ConnectionInfo, ConnectionsStore } from './connections.js';
export { DecryptError, type SecretBox } from './crypto.js';
export type { InstallationsStore } from './installations.js';
export type { KnownProject, KnownProjectsStore } from './knownProjects.js';

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
  /**
   * Forgets what Worklink keeps about a team's service workspace: the connection (API key),
   * channel links and known projects, in one transaction. Returns what was removed.
   */
  forgetTeam(teamId: string): { connection: boolean; links: number; projects: number };
  close(): void;
}

export interface OpenStoreOptions {
  /** SECRETS_KEY (32 bytes); else DATA_DIR/secret.key, generated once. */
  secretsKey?: Buffer;
}

export function openStore(dataDir: string, options: OpenStoreOptions = {}): Store {
  mkdirSync(dataDir, { recursive: true });
  const secrets = createSecretBox(loadSecretsKey(dataDir, options.secretsKey));
  const db = new Database(join(dataDir, DB_FILE));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // Another process (or the outbox worker) may hold the write lock for a moment.
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    migrate(db);
  } catch (e) {
    db.close();
    throw e;
  }
  const connections = connectionsStore(db, secrets);
  const channelProjects = channelProjectsStore(db);
  const knownProjects = knownProjectsStore(db);
  const forgetTeam = db.transaction((teamId: string) => ({
    connection: connections.delete(teamId),
    links: channelProjects.deleteTeam(teamId),
    projects: knownProjects.deleteTeam(teamId),
  }));
  return {
    db,
    dataDir,
    secrets,
    connections,
    installations: installationsStore(db, secrets),
    channelProjects,
    knownProjects,
    forgetTeam: (teamId) => forgetTeam(teamId),
    close: () => {
      if (db.open) db.close();
    },
  };
}
