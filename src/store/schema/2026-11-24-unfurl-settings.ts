/**
 * Link previews (the links issue): each team's admin choice of where links to the service's
 * tasks and projects unfurl — everywhere the app is (the default, no row), only in channels
 * linked to the task's project, or nowhere.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-unfurl-settings',
  sqlite: `
    CREATE TABLE unfurl_settings (
      team_id     TEXT PRIMARY KEY,
      mode        TEXT NOT NULL,
      updated_by  TEXT NOT NULL,
      updated_at  INTEGER NOT NULL
    ) STRICT;
  `,
  pg: `
    CREATE TABLE unfurl_settings (
      team_id     TEXT PRIMARY KEY,
      mode        TEXT NOT NULL,
      updated_by  TEXT NOT NULL,
      updated_at  BIGINT NOT NULL
    );
  `,
};
