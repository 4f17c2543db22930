/**
 * notify_outbox rows on PostgreSQL: the row as stored and as the app sees it, and the two
 * enqueue statements (outbox.ts runs them).
 */
import { randomBytes } from 'node:crypto';
import type { NewOutboxRow, OutboxRow, OutboxStatus } from '../outbox.js';

export interface Row {
  id: number;
  team_id: string;
  task_id: string;
  service_user_id: string;
  service_user_email: string | null;
  service_user_name: string | null;
  source: 'slack' | 'event';
  actor_slack_user_id: string | null;
  actor_service_user_id: string | null;
  creator_label: string | null;
  task_name: string;
  project_id: string | null;
  project_name: string | null;
  due_date: string | null;
  priority: string | null;
  slack_user_id: string | null;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  claimed_until: number | null;
  uncertain: boolean;
  marker: string;
  last_error: string | null;
  dm_channel: string | null;
  message_ts: string | null;
  message: string | null;
  created_at: string;
  sent_at: string | null;
  updated_at: string;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function fromRow(r: Row): OutboxRow {
  return {
    id: r.id,
    teamId: r.team_id,
    taskId: r.task_id,
    serviceUserId: r.service_user_id,
    serviceUserEmail: opt(r.service_user_email),
    serviceUserName: opt(r.service_user_name),
    source: r.source,
    actorSlackUserId: opt(r.actor_slack_user_id),
    actorServiceUserId: opt(r.actor_service_user_id),
    creatorLabel: opt(r.creator_label),
    taskName: r.task_name,
    projectId: opt(r.project_id),
    projectName: opt(r.project_name),
    dueDate: opt(r.due_date),
    priority: opt(r.priority),
    slackUserId: opt(r.slack_user_id),
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    claimedUntil: opt(r.claimed_until),
    uncertain: r.uncertain,
    marker: r.marker,
    lastError: opt(r.last_error),
    dmChannel: opt(r.dm_channel),
    messageTs: opt(r.message_ts),
    message: opt(r.message),
    createdAt: r.created_at,
    sentAt: opt(r.sent_at),
    updatedAt: r.updated_at,
  };
}

export const iso = (ms: number) => new Date(ms).toISOString();
/** Errors are stored for people to read; keep them short. */
export const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 297)}...` : s);

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
// table as it was before the INSERT, so it finds the existing row when the INSERT took none.
const upsertReturning = (onConflict: string) =>
  `WITH ins AS (INSERT INTO notify_outbox (${COLUMNS}) VALUES (${VALUES}) ${onConflict} RETURNING *)
   SELECT * FROM ins
   UNION ALL
   SELECT * FROM notify_outbox
    WHERE team_id = $1 AND task_id = $2 AND service_user_id = $3 AND NOT EXISTS (SELECT 1 FROM ins)`;
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
