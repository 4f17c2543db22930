/**
 * The app database's schema, as an ordered list. Migration i (0-based) brings the database
 * from user_version i to i + 1; each runs in its own transaction with the version bump.
 *
 * APPEND ONLY: never edit or reorder an entry that has shipped — add a new one at the end
 * (the notifications outbox, for example, is appended by src/slack/notify). An entry is SQL
 * text or a function for changes SQL alone cannot express.
 */
import type Database from 'better-sqlite3';

export type Migration = string | ((db: Database.Database) => void);

export const migrations: Migration[] = [
  // 1: connections, installations, channel links, known projects.
  `
  CREATE TABLE connections (
    team_id        TEXT PRIMARY KEY,
    enterprise_id  TEXT,
    workspace_id   TEXT NOT NULL,
    workspace_name TEXT NOT NULL,
    api_key_enc    BLOB NOT NULL,      -- AES-256-GCM, see crypto.ts; never the plain key
    connected_by   TEXT NOT NULL,      -- Slack user id
    key_owner_id   TEXT,               -- service user the key acts as (verify's createdBy)
    connected_at   TEXT NOT NULL       -- ISO 8601 UTC
  ) STRICT;

  CREATE TABLE installations (
    install_key           TEXT PRIMARY KEY, -- 'E:<enterprise_id>' or 'T:<team_id>'
    enterprise_id         TEXT,
    team_id               TEXT,
    is_enterprise_install INTEGER NOT NULL,
    installer_user_id     TEXT,
    data_enc              BLOB NOT NULL,    -- the whole Installation (tokens inside), sealed
    installed_at          TEXT NOT NULL
  ) STRICT;
  CREATE INDEX installations_team ON installations (team_id);

  CREATE TABLE channel_projects (
    team_id    TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    project_id TEXT NOT NULL,
    linked_by  TEXT NOT NULL,
    linked_at  TEXT NOT NULL,
    PRIMARY KEY (team_id, channel_id)
  ) STRICT;

  CREATE TABLE known_projects (
    team_id      TEXT NOT NULL,
    project_id   TEXT NOT NULL,
    project_name TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    PRIMARY KEY (team_id, project_id)
  ) STRICT;
  `,
];

/** Brings `db` up to date. Throws when the file is newer than this code. */
export function migrate(db: Database.Database, list: readonly Migration[] = migrations): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > list.length) {
    throw new Error(
      `The database schema (version ${current}) is newer than this Worklink (version ${list.length}); upgrade Worklink.`,
    );
  }
  for (let i = current; i < list.length; i++) {
    const step = list[i];
    db.transaction(() => {
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}
