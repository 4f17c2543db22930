/** outbox: its rows as both engines store them, and how they read as the contract's types. */
import type { OutboxRow, OutboxStatus } from './contract.js';

/** A row as SQLite stores it (the PostgreSQL engine's differs in `uncertain`, a boolean). */
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
  claimed_by: string | null;
  uncertain: number;
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
    claimedBy: opt(r.claimed_by),
    uncertain: r.uncertain === 1,
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

/** The columns `update` may set, by field. */
export const FIELD_COLUMNS: Record<string, string> = {
  slackUserId: 'slack_user_id',
  serviceUserEmail: 'service_user_email',
  serviceUserName: 'service_user_name',
  creatorLabel: 'creator_label',
  projectName: 'project_name',
  dmChannel: 'dm_channel',
};
