/**
 * The one door through which a newly created task reaches its assignees' DMs.
 * Called by the create-task paths in Slack (after the service confirmed the task) and by
 * the service's `task.created` event receiver. STUB: the notifications work replaces the body.
 */
import type { WebClient } from '@slack/web-api';
import type { WorkClient } from '../../workapi/client.js';
import type { Task } from '../../workapi/contract.js';

/** What announcing needs; a listener's WorkContext has all of it. */
export interface AnnounceDeps {
  slack: WebClient;
  work: WorkClient;
  /** The app store (src/store); typed loosely until the outbox exists. */
  store: unknown;
}

export interface AnnounceInput {
  teamId: string;
  task: Task;
  /** Who created it: the Slack user (created in Slack) and/or the service user (events). */
  actor: { slackUserId?: string; serviceUserId?: string };
}

export interface AssignmentReport {
  /** Assignees on the task. */
  assignees: number;
  /** Assignees with a DM queued (or already queued earlier: never twice). */
  notified: number;
  /** The creator was among the assignees and is not told of their own action. */
  skippedActor: boolean;
  /** Assignees with no Slack match, by e-mail (or name when the service has no e-mail). */
  unmatched: string[];
}

export async function announceNewTask(
  _deps: AnnounceDeps,
  _input: AnnounceInput,
): Promise<AssignmentReport> {
  return { assignees: 0, notified: 0, skippedActor: false, unmatched: [] };
}

/** "2 of 3 assignees notified — bob@example.com has no Slack account linked." */
export function describeAssignmentReport(r: AssignmentReport): string {
  const others = r.assignees - (r.skippedActor ? 1 : 0);
  if (others <= 0) return '';
  const head = `${r.notified} of ${others} assignee${others === 1 ? '' : 's'} notified`;
  if (r.unmatched.length === 0) return `${head}.`;
  const who = r.unmatched.join(', ');
  return `${head} — ${who} ${r.unmatched.length === 1 ? 'has' : 'have'} no Slack account linked.`;
}
