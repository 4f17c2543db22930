/**
 * Personal connections and team settings (the identity issue): each Slack person's own
 * service API key, sealed like the workspace key and bound to (team, person); and each
 * team's two admin policies — what members without a key may do, and who may link channels
 * and turn feeds on or off.
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-personal-keys',
  sqlite: `
    CREATE TABLE personal_keys (
      team_id          TEXT NOT NULL,
      slack_user_id    TEXT NOT NULL,
      service_user_id  TEXT NOT NULL,
      api_key_enc      BLOB NOT NULL,
      connected_at     INTEGER NOT NULL,
      failing_since    INTEGER,
      failure          TEXT,
      PRIMARY KEY (team_id, slack_user_id)
    ) STRICT;
    CREATE INDEX personal_keys_by_service_user ON personal_keys (team_id, service_user_id);
    CREATE TABLE team_settings (
      team_id         TEXT PRIMARY KEY,
      members_policy  TEXT NOT NULL DEFAULT 'attributed',
      links_policy    TEXT NOT NULL DEFAULT 'admins',
      updated_by      TEXT NOT NULL,
      updated_at      INTEGER NOT NULL
    ) STRICT;
  `,
  pg: `
    CREATE TABLE personal_keys (
      team_id          TEXT NOT NULL,
      slack_user_id    TEXT NOT NULL,
      service_user_id  TEXT NOT NULL,
      api_key_enc      BYTEA NOT NULL,
      connected_at     BIGINT NOT NULL,
      failing_since    BIGINT,
      failure          TEXT,
      PRIMARY KEY (team_id, slack_user_id)
    );
    CREATE INDEX personal_keys_by_service_user ON personal_keys (team_id, service_user_id);
    CREATE TABLE team_settings (
      team_id         TEXT PRIMARY KEY,
      members_policy  TEXT NOT NULL DEFAULT 'attributed',
      links_policy    TEXT NOT NULL DEFAULT 'admins',
      updated_by      TEXT NOT NULL,
      updated_at      BIGINT NOT NULL
    );
  `,
};
