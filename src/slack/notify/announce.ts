/**
 * The one door through which a newly created task reaches its assignees' DMs.
 * Called by the create-task paths in Slack right after the service confirmed the task.
 * (The service's `task.created` events take the other door, src/slack/service-events/events-receiver.ts,
 * into the same outbox; the unique key makes both together still one DM per assignee.)
 *
 * 1. One transaction queues a row per assignee — before anything else, so a crash after
 *    this point loses nothing. The rows are held for a moment while this call matches them.
 * 2. Matching: service users (listUsers) → Slack users (link, else e-mail lookup). The
 *    creator's own row is skipped; assignees with no Slack account fail with that reason
 *    and are named in the report. Anything that cannot be decided now (Slack or the service
 *    slow) is left to the worker, which matches rows itself.
 * 3. The worker is woken; the report says who will be told.
 */
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Store } from '../../store/index.js';
import {
  CREATOR_SKIPPED,
  type NewOutboxRow,
  NO_SLACK_ACCOUNT,
  type OutboxRow,
} from '../../store/index.js';
import type { WorkClient } from '../../workapi/client.js';
import type { Task } from '../../workapi/contract.js';
import { errMessage, orDebug } from '../context/error-replies.js';
import type { ServiceDirectory, ServiceUser } from '../context/service-directory.js';
import type { SlackMatcher } from '../context/slack-matcher.js';

/** What announcing needs; a listener's WorkContext has all of it. */
export interface AnnounceDeps {
  slack: WebClient;
  work: WorkClient;
  /** The app store (src/store). */
  store: Store;
  /** Failures announcing can do without are logged here at debug. */
  logger?: Pick<Logger, 'debug'>;
  /** The running app's service users and Slack matching (WorklinkDeps has both). */
  directory: ServiceDirectory;
  matcher: SlackMatcher;
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

/** How long queued rows wait for this call to match them before the worker does it. */
export const ANNOUNCE_HOLD_MS = 30_000;

export async function announceNewTask(
  deps: AnnounceDeps,
  input: AnnounceInput,
): Promise<AssignmentReport> {
  const { store } = deps;
  const { teamId, task, actor } = input;
  const ids = [...new Set((task.taskUsers ?? []).map((u) => u.taskUserId).filter(Boolean))];
  if (ids.length === 0) return { assignees: 0, notified: 0, skippedActor: false, unmatched: [] };
  const { outbox } = store;

  // 1. Queue first (one transaction), matching afterwards.
  const now = Date.now();
  const holdUntil = now + ANNOUNCE_HOLD_MS;
  const known = task.projectId ? await store.knownProjects.get(teamId, task.projectId) : undefined;
  const rows: NewOutboxRow[] = ids.map((serviceUserId) => {
    const isActor = serviceUserId === actor.serviceUserId;
    return {
      teamId,
      taskId: task.taskId,
      serviceUserId,
      source: 'slack',
      actorSlackUserId: actor.slackUserId,
      actorServiceUserId: actor.serviceUserId,
      creatorLabel: actor.slackUserId ? `<@${actor.slackUserId}>` : undefined,
      taskName: task.taskName ?? '',
      projectId: task.projectId,
      projectName: known?.projectName,
      dueDate: task.dueDate ?? undefined,
      priority: task.priority,
      status: isActor ? 'skipped' : 'pending',
      lastError: isActor ? CREATOR_SKIPPED : undefined,
      notBefore: holdUntil,
    };
  });
  const queued = await outbox.enqueue(rows, 'slack', now);
  // Rows this call owns: just queued (or taken over from an event), not yet matched.
  const mine = queued.filter(
    (r) => r.status === 'pending' && !r.slackUserId && r.nextAttemptAt === holdUntil,
  );

  // 2. Match what can be matched now.
  try {
    await matchRows(deps, input, mine);
  } finally {
    // Whatever is still held goes to the worker now.
    for (const r of mine) await outbox.release(r.id);
    store.outbox.changed();
  }

  // 3. Report from the rows as they now stand.
  const final = (await outbox.forTask(teamId, task.taskId)).filter((r) =>
    ids.includes(r.serviceUserId),
  );
  return {
    assignees: ids.length,
    notified: final.filter((r) => ['pending', 'sending', 'sent'].includes(r.status)).length,
    skippedActor: final.some((r) => r.status === 'skipped'),
    unmatched: final
      .filter((r) => r.status === 'failed' && r.lastError === NO_SLACK_ACCOUNT)
      .map((r) => r.serviceUserEmail ?? r.serviceUserName ?? r.serviceUserId),
  };
}

async function matchRows(deps: AnnounceDeps, input: AnnounceInput, rows: OutboxRow[]) {
  if (rows.length === 0) return;
  const { store } = deps;
  const { teamId, task, actor } = input;
  const { outbox } = store;
  const { directory } = deps;
  const users = await directory
    .usersOf(teamId, deps.work)
    .catch(orDebug(deps.logger, `Service users of ${teamId}`, undefined));
  const projectName =
    rows[0].projectName ??
    (task.projectId
      ? await directory
          .projectName(teamId, task.projectId, deps.work)
          .catch(orDebug(deps.logger, `Project name of ${task.projectId}`, undefined))
      : undefined);
  const creatorLabel =
    rows[0].creatorLabel ??
    (actor.serviceUserId ? users?.get(actor.serviceUserId)?.name : undefined);

  await Promise.all(
    rows.map(async (row) => {
      const user: ServiceUser | undefined = users?.get(row.serviceUserId);
      await outbox.update(row.id, {
        serviceUserEmail: user?.email,
        serviceUserName: user?.name,
        projectName,
        creatorLabel,
      });
      // Without the service's user list the e-mail is unknown: the worker will try again.
      if (!users) return;
      let match: Awaited<ReturnType<SlackMatcher['match']>>;
      try {
        match = await deps.matcher.match(deps.slack, teamId, user?.email, row.serviceUserId);
      } catch (e) {
        // Slack busy or failing: the worker matches this row later.
        deps.logger?.debug(`Matching outbox row ${row.id} is left to the worker: ${errMessage(e)}`);
        return;
      }
      if (match.kind === 'unmatched') {
        await outbox.markFailed(row.id, NO_SLACK_ACCOUNT);
      } else if (match.slackUserId === actor.slackUserId) {
        await outbox.update(row.id, { slackUserId: match.slackUserId });
        await outbox.markSkipped(row.id, CREATOR_SKIPPED);
      } else {
        await outbox.update(row.id, { slackUserId: match.slackUserId });
      }
    }),
  );
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
