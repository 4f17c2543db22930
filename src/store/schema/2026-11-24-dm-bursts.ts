/**
 * DM bursts (src/slack/notify/dm-gate.ts): DMs to one person that come in a flood — sixty
 * tasks assigned to them in a minute — are held like quiet hours' DMs and go out as ONE
 * message ("You were assigned 57 tasks in Website relaunch"). For that message a held DM
 * keeps what it is about: its kind (assigned, comments, completed; NULL for others), its
 * project's and task's names, and why it is held (`cause`: quiet hours or a burst).
 * notify_bursts is each person's current window: when it started and how many DMs came in it;
 * the first few go out as they are, the rest wait for the window's end.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-dm-bursts',
  sqlite: `
    ALTER TABLE notify_held ADD COLUMN kind TEXT;
    ALTER TABLE notify_held ADD COLUMN project_name TEXT;
    ALTER TABLE notify_held ADD COLUMN task_name TEXT;
    ALTER TABLE notify_held ADD COLUMN cause TEXT NOT NULL DEFAULT 'quiet';
    CREATE TABLE notify_bursts (
      team_id       TEXT NOT NULL,
      slack_user_id TEXT NOT NULL,
      window_start  INTEGER NOT NULL,
      count         INTEGER NOT NULL,
      PRIMARY KEY (team_id, slack_user_id)
    ) STRICT;`,
  pg: `
    ALTER TABLE notify_held ADD COLUMN kind TEXT;
    ALTER TABLE notify_held ADD COLUMN project_name TEXT;
    ALTER TABLE notify_held ADD COLUMN task_name TEXT;
    ALTER TABLE notify_held ADD COLUMN cause TEXT NOT NULL DEFAULT 'quiet';
    CREATE TABLE notify_bursts (
      team_id       TEXT NOT NULL,
      slack_user_id TEXT NOT NULL,
      window_start  BIGINT NOT NULL,
      count         INTEGER NOT NULL,
      PRIMARY KEY (team_id, slack_user_id)
    );`,
};
