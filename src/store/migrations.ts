/**
 * The app database's schema, as an ordered list. Migration i (0-based) brings the database
 * from user_version i to i + 1; each runs in its own transaction with the version bump.
 *
 * APPEND ONLY: never edit or reorder an entry that has shipped — add a new one at the end
 * (as the notification tables were, in entry 2). An entry is SQL text or a function for
 * changes SQL alone cannot express.
 */
import type Database from 'better-sqlite3';
import { schemaChanges } from './schema/changes.js';
import { newerThanCode, ordered, type SchemaChange, unknownIds } from './schema/schema-change.js';

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
  // 2: notifications — the DM outbox, explicit user links, the e-mail lookup cache and the
  // ids of service events already taken in (src/store/tables/outbox/, user-links.ts, lookup-cache.ts).
  `
  CREATE TABLE notify_outbox (
    id                    INTEGER PRIMARY KEY,
    team_id               TEXT NOT NULL,
    task_id               TEXT NOT NULL,
    service_user_id       TEXT NOT NULL,
    service_user_email    TEXT,
    service_user_name     TEXT,
    source                TEXT NOT NULL CHECK (source IN ('slack', 'event')),
    actor_slack_user_id   TEXT,            -- who created the task in Slack, if there
    actor_service_user_id TEXT,            -- the service user who created it (events)
    creator_label         TEXT,            -- '<@U…>' or the creator's name, for the DM
    task_name             TEXT NOT NULL,
    project_id            TEXT,
    project_name          TEXT,
    due_date              TEXT,
    priority              TEXT,
    slack_user_id         TEXT,            -- resolved recipient; NULL until matched
    status                TEXT NOT NULL
                          CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'skipped')),
    attempts              INTEGER NOT NULL DEFAULT 0,
    next_attempt_at       INTEGER NOT NULL,  -- epoch ms
    claimed_until         INTEGER,           -- epoch ms; a 'sending' row past it was abandoned
    uncertain             INTEGER NOT NULL DEFAULT 0, -- a send may have reached Slack
    marker                TEXT NOT NULL UNIQUE,       -- in the DM's metadata, for reconciling
    last_error            TEXT,
    dm_channel            TEXT,
    message_ts            TEXT,
    created_at            TEXT NOT NULL,
    sent_at               TEXT,
    updated_at            TEXT NOT NULL,
    UNIQUE (team_id, task_id, service_user_id)
  ) STRICT;
  CREATE INDEX notify_outbox_due ON notify_outbox (status, next_attempt_at);
  CREATE INDEX notify_outbox_claims ON notify_outbox (status, claimed_until);
  CREATE INDEX notify_outbox_team ON notify_outbox (team_id, status, updated_at);

  CREATE TABLE notify_user_links (
    team_id       TEXT NOT NULL,
    service_email TEXT NOT NULL,           -- lower-case
    slack_user_id TEXT NOT NULL,
    linked_by     TEXT NOT NULL,
    linked_at     TEXT NOT NULL,
    PRIMARY KEY (team_id, service_email)
  ) STRICT;
  CREATE INDEX notify_user_links_slack ON notify_user_links (team_id, slack_user_id);

  CREATE TABLE notify_lookup_cache (
    team_id       TEXT NOT NULL,
    email         TEXT NOT NULL,           -- lower-case
    slack_user_id TEXT,                    -- NULL: Slack has no user with this e-mail
    expires_at    INTEGER NOT NULL,        -- epoch ms
    PRIMARY KEY (team_id, email)
  ) STRICT;

  CREATE TABLE notify_seen_events (
    event_id TEXT PRIMARY KEY,
    seen_at  INTEGER NOT NULL              -- epoch ms
  ) STRICT;
  CREATE INDEX notify_seen_events_age ON notify_seen_events (seen_at);
  `,
  // 3: the task index (src/store/tables/task-index/): what Worklink knows of each task of a team's
  // service workspace, its words for FTS5 search, and who is assigned (for "my tasks").
  `
  CREATE TABLE task_index (
    team_id      TEXT NOT NULL,
    task_id      TEXT NOT NULL,
    project_id   TEXT NOT NULL,
    number       INTEGER,              -- TaskNumber, when known
    name         TEXT NOT NULL,
    done         INTEGER NOT NULL DEFAULT 0,
    gone         INTEGER NOT NULL DEFAULT 0, -- the service no longer lists or returns it
    status_name  TEXT,
    due_date     TEXT,                 -- yyyy-MM-dd (the UTC calendar date)
    priority     INTEGER,
    assignees    TEXT NOT NULL DEFAULT '[]', -- JSON array of service user ids
    creator_id   TEXT,
    read_at      INTEGER,              -- epoch ms of the last whole read; NULL: names only
    seen_at      INTEGER NOT NULL,     -- epoch ms of the last sighting of any kind
    PRIMARY KEY (team_id, task_id)
  ) STRICT;
  CREATE INDEX task_index_number ON task_index (team_id, project_id, number);
  CREATE INDEX task_index_refresh ON task_index (team_id, done, gone, read_at);

  CREATE TABLE task_index_assignees (
    team_id TEXT NOT NULL,
    user_id TEXT NOT NULL,               -- service user id
    task_id TEXT NOT NULL,
    PRIMARY KEY (team_id, user_id, task_id)
  ) STRICT, WITHOUT ROWID;

  CREATE VIRTUAL TABLE task_index_fts USING fts5(
    name, content = 'task_index', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3'
  );
  CREATE TRIGGER task_index_ai AFTER INSERT ON task_index BEGIN
    INSERT INTO task_index_fts (rowid, name) VALUES (new.rowid, new.name);
  END;
  CREATE TRIGGER task_index_ad AFTER DELETE ON task_index BEGIN
    INSERT INTO task_index_fts (task_index_fts, rowid, name) VALUES ('delete', old.rowid, old.name);
  END;
  CREATE TRIGGER task_index_au AFTER UPDATE OF name ON task_index BEGIN
    INSERT INTO task_index_fts (task_index_fts, rowid, name) VALUES ('delete', old.rowid, old.name);
    INSERT INTO task_index_fts (rowid, name) VALUES (new.rowid, new.name);
  END;
  `,
  // 4: requests already taken in (src/store/tables/seen-requests/): signatures of signed requests
  // and Slack event ids, kept until their replay window closes.
  `
  CREATE TABLE seen_requests (
    key        TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL            -- epoch ms
  ) STRICT;
  CREATE INDEX seen_requests_expiry ON seen_requests (expires_at);
  `,
  // 5: per-person notification settings (src/store/tables/notify-settings/), one row per kind a
  // person changed; and DMs that carry their own message (the daily digest) in the outbox.
  `
  CREATE TABLE notify_settings (
    team_id       TEXT NOT NULL,
    slack_user_id TEXT NOT NULL,
    kind          TEXT NOT NULL,           -- 'digest'; more kinds later
    enabled       INTEGER NOT NULL,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (team_id, slack_user_id, kind)
  ) STRICT;
  ALTER TABLE notify_outbox ADD COLUMN message TEXT; -- JSON {text, blocks}; NULL: assignment DM
  `,
  // 6: what the watcher has seen (src/store/tables/watch-state/): per watched project its first
  // and last look, and the task ids seen there (new ones are announced once).
  `
  CREATE TABLE watched_projects (
    team_id     TEXT NOT NULL,
    project_id  TEXT NOT NULL,
    baseline_at INTEGER NOT NULL,   -- epoch ms of the first look
    looked_at   INTEGER NOT NULL,   -- epoch ms of the last successful look
    PRIMARY KEY (team_id, project_id)
  ) STRICT;

  CREATE TABLE watch_seen (
    team_id    TEXT NOT NULL,
    project_id TEXT NOT NULL,
    task_id    TEXT NOT NULL,
    PRIMARY KEY (team_id, project_id, task_id)
  ) STRICT, WITHOUT ROWID;
  `,
  // 7: the worker asks for a team's due rows (src/store/tables/outbox/, due/nextDueAt): one index
  // range per team, in due order, instead of walking every pending row of paused teams.
  `
  CREATE INDEX notify_outbox_team_due ON notify_outbox (status, team_id, next_attempt_at);
  DROP INDEX notify_outbox_due;
  `,
  // 8: a task's assignees found by task (re-recording a task replaces them; without this it
  // scanned all of the team's assignee rows).
  `
  CREATE INDEX task_index_assignees_task ON task_index_assignees (team_id, task_id);
  `,
  // 9: the messages Worklink posted about each task, kept current with chat.update
  // (src/store/tables/task-messages/). Assignment DMs are recorded by the trigger when the outbox
  // worker marks one sent, in the same transaction as that mark.
  `
  CREATE TABLE task_messages (
    team_id     TEXT NOT NULL,
    task_id     TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    ts          TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('card', 'dm')),
    actor       TEXT,                -- '<@U…>' or a name: who created / assigned
    task_number INTEGER,
    created_at  INTEGER NOT NULL,    -- epoch ms
    PRIMARY KEY (team_id, channel_id, ts)
  ) STRICT;
  CREATE INDEX task_messages_task ON task_messages (team_id, task_id);

  CREATE TRIGGER task_messages_from_outbox AFTER UPDATE OF message_ts ON notify_outbox
  -- Rows keyed by something other than a task (the daily digest's 'digest:<date>') are not
  -- messages about a task.
  WHEN NEW.status = 'sent' AND NEW.message_ts IS NOT NULL AND NEW.dm_channel IS NOT NULL
   AND instr(NEW.task_id, ':') = 0
  BEGIN
    INSERT OR IGNORE INTO task_messages (team_id, task_id, channel_id, ts, kind, actor, created_at)
    VALUES (NEW.team_id, NEW.task_id, NEW.dm_channel, NEW.message_ts, 'dm', NEW.creator_label,
            CAST(unixepoch('subsec') * 1000 AS INTEGER));
  END;
  `,
  // 10: channel feeds (`/work feed on|off [sync]`) and what each feed posted for each task
  // (src/store/tables/channel-feeds/): a task's card (its thread gets the task's later activity)
  // or its line in a burst's summary; one row per channel and task, so nothing posts twice.
  `
  CREATE TABLE channel_feeds (
    team_id     TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    sync        INTEGER NOT NULL DEFAULT 0,  -- thread replies become comments
    enabled_by  TEXT NOT NULL,               -- Slack user id
    enabled_at  INTEGER NOT NULL,            -- epoch ms
    PRIMARY KEY (team_id, channel_id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE feed_posts (
    team_id     TEXT NOT NULL,
    channel_id  TEXT NOT NULL,
    task_id     TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('card', 'summary')),
    posted_at   INTEGER NOT NULL,            -- epoch ms (the app's clock)
    ts          TEXT,                        -- the card's, or the summary's, message ts
    PRIMARY KEY (team_id, channel_id, task_id)
  ) STRICT;
  CREATE INDEX feed_posts_recent ON feed_posts (team_id, channel_id, posted_at);
  CREATE INDEX feed_posts_task ON feed_posts (team_id, task_id);
  CREATE INDEX feed_posts_message ON feed_posts (team_id, channel_id, ts);
  `,
  // 11: several instances on one database (docs/architecture.md, "Several instances"). Who
  // holds an outbox row's lease; leases on periodic work (a watched project's look, a team's
  // digest look: src/store/tables/leases/); and each team's DM pace and each DM channel's next
  // free moment, shared by every instance (src/store/tables/pace/).
  `
  ALTER TABLE notify_outbox ADD COLUMN claimed_by TEXT; -- the instance holding the lease

  CREATE TABLE leases (
    key         TEXT PRIMARY KEY,   -- 'watch:<team>:<project>', 'digest:<team>'
    claimed_by  TEXT,               -- the instance that holds it (or last held it)
    lease_until INTEGER NOT NULL,   -- epoch ms; past it, anyone may take the work
    next_at     INTEGER NOT NULL    -- epoch ms; the work is not due before
  ) STRICT;

  CREATE TABLE team_pace (
    team_id       TEXT PRIMARY KEY,
    state         TEXT NOT NULL,    -- JSON: pause, learned pace, run of accepted sends
    blocked_until INTEGER NOT NULL  -- epoch ms; no send of the team starts before
  ) STRICT;
  CREATE INDEX team_pace_blocked ON team_pace (blocked_until);

  CREATE TABLE channel_pace (
    team_id  TEXT NOT NULL,
    channel  TEXT NOT NULL,         -- the recipient (one DM channel per person)
    ready_at INTEGER NOT NULL,      -- epoch ms of the channel's next free moment
    PRIMARY KEY (team_id, channel)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX channel_pace_ready ON channel_pace (ready_at);
  `,
  // 12: notification kinds and quiet hours (issue 11). A setting may carry a value (quiet
  // hours '20:00-08:00'); DMs held during someone's quiet hours wait in notify_held
  // (src/store/tables/held-dms/) and go out together after; task_creators remembers who created
  // a task as Slack knows it (src/store/tables/task-creators/), told "completed" and comments.
  `
  ALTER TABLE notify_settings ADD COLUMN value TEXT;
  CREATE TABLE notify_held (
    outbox_id     INTEGER PRIMARY KEY,   -- the held notify_outbox row (status 'skipped')
    team_id       TEXT NOT NULL,
    slack_user_id TEXT NOT NULL,
    release_at    INTEGER NOT NULL,      -- epoch ms: the end of the quiet hours
    summary       TEXT NOT NULL          -- one line for the combined message
  ) STRICT;
  CREATE INDEX notify_held_release ON notify_held (release_at);
  CREATE TABLE task_creators (
    team_id         TEXT NOT NULL,
    task_id         TEXT NOT NULL,
    slack_user_id   TEXT,
    service_user_id TEXT,
    created_at      INTEGER NOT NULL,    -- epoch ms
    PRIMARY KEY (team_id, task_id)
  ) STRICT;
  `,
];

/** Brings `db` up to date: the numbered list, then the named changes (schema/). Throws when
 *  the file is newer than this code. */
export function migrate(
  db: Database.Database,
  list: readonly Migration[] = migrations,
  named: readonly SchemaChange[] = schemaChanges,
): void {
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
  applyNamed(db, named);
}

function applyNamed(db: Database.Database, named: readonly SchemaChange[]): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_changes (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT',
  );
  const applied = new Set(
    db
      .prepare<[], { id: string }>('SELECT id FROM schema_changes')
      .all()
      .map((r) => r.id),
  );
  const unknown = unknownIds(applied, named);
  if (unknown.length) throw newerThanCode(unknown);
  const record = db.prepare('INSERT INTO schema_changes (id, applied_at) VALUES (?, ?)');
  for (const change of ordered(named)) {
    if (applied.has(change.id)) continue;
    db.transaction(() => {
      db.exec(change.sqlite);
      record.run(change.id, Date.now());
    })();
  }
}
