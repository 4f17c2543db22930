/**
 * notify_outbox rows on PostgreSQL: the row as stored and as the app sees it, and the two
 * enqueue statements (outbox.ts runs them).
 */
import { randomBytes } from 'node:crypto';
import type { NewOutboxRow, OutboxRow } from './contract.js';
import { iso, type Row as SqliteRow, fromRow as sqliteFromRow } from './rows.js';

/** A row as PostgreSQL returns it: SQLite's, with `uncertain` a boolean. */
export type Row = Omit<SqliteRow, 'uncertain'> & { uncertain: boolean };

export const fromRow = (r: Row): OutboxRow =>
  sqliteFromRow({ ...r, uncertain: r.uncertain ? 1 : 0 });

const COLUMNS = `team_id, task_id, service_user_id, service_user_email, service_user_name,
  source, actor_slack_user_id, actor_service_user_id, creator_label, task_name, project_id,
  project_name, due_date, priority, slack_user_id, status, next_attempt_at, marker, last_error,
  created_at, updated_at, message`;

const VALUES = Array.from({ length: 22 }, (_, i) => `$${i + 1}`).join(', ');

export const toParams = (r: NewOutboxRow, now: number) => [
  r.teamId,
  r.taskId,
  r.serviceUserId,
  r.serviceUserEmail?.toLowerCase() ?? null,
  r.serviceUserName ?? null,
  r.source,
  r.actorSlackUserId ?? null,
  r.actorServiceUserId ?? null,
  r.creatorLabel ?? null,
  r.taskName,
  r.projectId ?? null,
  r.projectName ?? null,
  r.dueDate ?? null,
  r.priority ?? null,
  r.slackUserId ?? null,
  r.status ?? 'pending',
  r.notBefore ?? now,
  randomBytes(12).toString('hex'),
  r.lastError ?? null,
  iso(now),
  iso(now),
  r.message ?? null,
];

// The row as it now stands, new or existing, in one statement: the outer SELECT sees the
// table as it was before the INSERT, so it finds the existing row when the INSERT took none
// — unless another instance committed that row while this statement waited for it, after
// this statement's snapshot: then it answers nothing, and BY_KEY (a new snapshot) finds it.
const upsertReturning = (onConflict: string) =>
  `WITH ins AS (INSERT INTO notify_outbox (${COLUMNS}) VALUES (${VALUES}) ${onConflict} RETURNING *)
   SELECT * FROM ins
   UNION ALL
   SELECT * FROM notify_outbox
    WHERE team_id = $1 AND task_id = $2 AND service_user_id = $3 AND NOT EXISTS (SELECT 1 FROM ins)`;

export const BY_KEY =
  'SELECT * FROM notify_outbox WHERE team_id = $1 AND task_id = $2 AND service_user_id = $3';

export const INSERT_IGNORE = upsertReturning(
  'ON CONFLICT (team_id, task_id, service_user_id) DO NOTHING',
);

// The Slack path takes over an event's row only while nobody has started sending it.
export const INSERT_SLACK =
  upsertReturning(`ON CONFLICT (team_id, task_id, service_user_id) DO UPDATE SET
       source = 'slack',
       actor_slack_user_id = excluded.actor_slack_user_id,
       actor_service_user_id = excluded.actor_service_user_id,
       creator_label = COALESCE(excluded.creator_label, notify_outbox.creator_label),
       service_user_email = COALESCE(excluded.service_user_email, notify_outbox.service_user_email),
       service_user_name = COALESCE(excluded.service_user_name, notify_outbox.service_user_name),
       project_name = COALESCE(excluded.project_name, notify_outbox.project_name),
       slack_user_id = excluded.slack_user_id,
       status = excluded.status,
       last_error = excluded.last_error,
       next_attempt_at = excluded.next_attempt_at,
       updated_at = excluded.updated_at
     WHERE notify_outbox.source = 'event' AND notify_outbox.status IN ('pending', 'skipped')`);
