/**
 * Reminders (`/work remind #12 tomorrow 9am`, "Remind me" on task cards and DMs): one row per
 * reminder, fired once at `due_at` as a DM through the outbox (src/slack/remind/). `queued_at`
 * is set once its DM is queued (the outbox's key `remind:<id>` keeps it to one DM even when two
 * instances queue it at once); `cancelled_at` when its person cancels it.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-reminders',
  sqlite: `
    CREATE TABLE reminders (
      id            TEXT NOT NULL PRIMARY KEY,
      team_id       TEXT NOT NULL,
      slack_user_id TEXT NOT NULL,
      task_id       TEXT NOT NULL,
      due_at        INTEGER NOT NULL,
      created_at    INTEGER NOT NULL,
      queued_at     INTEGER,
      cancelled_at  INTEGER
    ) STRICT;
    CREATE INDEX reminders_due ON reminders (due_at) WHERE queued_at IS NULL AND cancelled_at IS NULL;
    CREATE INDEX reminders_person ON reminders (team_id, slack_user_id, due_at);`,
  pg: `
    CREATE TABLE reminders (
      id            TEXT NOT NULL PRIMARY KEY,
      team_id       TEXT NOT NULL,
      slack_user_id TEXT NOT NULL,
      task_id       TEXT NOT NULL,
      due_at        BIGINT NOT NULL,
      created_at    BIGINT NOT NULL,
      queued_at     BIGINT,
      cancelled_at  BIGINT
    );
    CREATE INDEX reminders_due ON reminders (due_at) WHERE queued_at IS NULL AND cancelled_at IS NULL;
    CREATE INDEX reminders_person ON reminders (team_id, slack_user_id, due_at);`,
};
