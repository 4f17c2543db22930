/**
 * The DM listener on the task activity hub (activity.ts): who is told what, through the
 * outbox (exactly once per team, task, person, kind and event — the row's unique key),
 * never the person who acted:
 * - assigned → each new assignee, as the same row a new task's assignment uses (team, task,
 *   person), so however the assignment is seen (edit, `/work assign`, the index refresh, the
 *   create path) it is one DM;
 * - commented → the task's assignees and its creator, the comment quoted
 *   (key `comment:<task>:<comment id>`);
 * - completed → the task's creator (key `completed:<task>:<event>`);
 * - created → nothing sent here (the task-change owner and `seen` note its creator,
 *   store/tables/task-creators/).
 * Service users become Slack users as for assignment DMs (directory + matcher); one the
 * listener cannot match now is queued by service user id for the worker to match. Settings
 * and quiet hours are applied when the DM is sent (dm-gate.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ActivityListener, Actor, TaskActivity } from '../../activity/hub.js';
import type { NewOutboxRow, Store, TaskCreator } from '../../store/index.js';
import type { WorkClient } from '../../workapi/client.js';
import { orDebug } from '../context/error-replies.js';
import type { ServiceDirectory } from '../context/service-directory.js';
import type { SlackMatcher } from '../context/slack-matcher.js';
import type { WorkLinks } from '../context/work-links.js';
import { commentMessage, completedMessage } from './activity-messages.js';

export interface ActivityDmsDeps {
  store: Store;
  logger: Pick<Logger, 'debug'>;
  /** The team's bot client (Notifications.slackFor). */
  slackFor(teamId: string): Promise<WebClient | undefined>;
  /** The team's WorkClient, or undefined when not connected. */
  workFor(teamId: string): Promise<WorkClient | undefined>;
  directory: ServiceDirectory;
  matcher: SlackMatcher;
  /** "Open in …" addresses for the DMs' buttons. */
  links?: WorkLinks;
}

/** What the DMs say of a task. */
interface TaskInfo {
  name: string;
  projectId?: string;
  dueDate?: string;
  priority?: string;
  assigneeIds: string[];
}

type Role = 'assignee' | 'creator';
interface Recipient {
  role: Role;
  slackUserId?: string;
  serviceUserId?: string;
}

export function activityDms(deps: ActivityDmsDeps): ActivityListener {
  return async (teamId, activity) => {
    switch (activity.kind) {
      case 'created':
        // Nothing to send; its creator was noted by the change that made or saw it.
        return;
      case 'assigned':
        await assigned(deps, teamId, activity);
        return;
      case 'changed':
        // Told in feeds and shown in live messages; nobody chose a DM for it.
        return;
      default:
        // commented, completed (reopened tells nobody)
        await toPeople(deps, teamId, activity);
    }
  };
}

const actorLabel = (actor: Actor | undefined) =>
  actor?.slackUserId ? `<@${actor.slackUserId}>` : actor?.name;

async function taskInfo(
  deps: ActivityDmsDeps,
  teamId: string,
  taskId: string,
): Promise<TaskInfo | undefined> {
  const known = await deps.store.taskIndex.get(teamId, taskId);
  if (known) {
    return {
      name: known.name,
      projectId: known.projectId,
      dueDate: known.dueDate,
      priority: known.priority === undefined ? undefined : String(known.priority),
      assigneeIds: known.assigneeIds,
    };
  }
  const work = await deps.workFor(teamId);
  const task = await work
    ?.getTask(taskId)
    .catch(orDebug(deps.logger, `Reading task ${taskId} for its DMs`, undefined));
  if (!task) return undefined;
  return {
    name: task.taskName ?? '',
    projectId: task.projectId,
    dueDate: task.dueDate ?? undefined,
    priority: task.priority,
    assigneeIds: (task.taskUsers ?? []).map((u) => u.taskUserId),
  };
}

async function assigned(
  deps: ActivityDmsDeps,
  teamId: string,
  a: Extract<TaskActivity, { kind: 'assigned' }>,
): Promise<void> {
  const added = [...new Set(a.added)].filter((id) => id !== a.actor?.serviceUserId);
  if (added.length === 0) return;
  const info = await taskInfo(deps, teamId, a.taskId);
  const projectId = a.projectId ?? info?.projectId;
  const project = projectId ? await deps.store.knownProjects.get(teamId, projectId) : undefined;
  // Matched now when possible; a row left without its Slack user is matched by the worker.
  const matched = await matchPeople(deps, teamId, added);
  const rows: NewOutboxRow[] = added.map((serviceUserId) => ({
    teamId,
    taskId: a.taskId,
    serviceUserId,
    source: 'slack',
    actorSlackUserId: a.actor?.slackUserId,
    actorServiceUserId: a.actor?.serviceUserId,
    creatorLabel: actorLabel(a.actor),
    taskName: info?.name ?? '',
    projectId,
    projectName: project?.projectName,
    dueDate: info?.dueDate,
    priority: info?.priority,
    slackUserId: matched.get(serviceUserId) ?? undefined,
  }));
  await deps.store.outbox.enqueue(rows, 'ignore');
  deps.store.outbox.changed();
}

async function toPeople(
  deps: ActivityDmsDeps,
  teamId: string,
  a: Exclude<TaskActivity, { kind: 'created' | 'assigned' | 'changed' }>,
): Promise<void> {
  if (a.kind === 'reopened') return;
  const info = await taskInfo(deps, teamId, a.taskId);
  const wanted: Recipient[] = [];
  if (a.kind === 'commented') {
    for (const id of info?.assigneeIds ?? []) wanted.push({ role: 'assignee', serviceUserId: id });
  }
  const creator: TaskCreator = (await deps.store.taskCreators.get(teamId, a.taskId)) ?? {
    serviceUserId: (await deps.store.taskIndex.get(teamId, a.taskId))?.creatorId,
  };
  if (creator.slackUserId || creator.serviceUserId) wanted.push({ role: 'creator', ...creator });
  const people = await resolve(deps, teamId, wanted);
  const isActor = (r: Recipient) =>
    (r.slackUserId !== undefined && r.slackUserId === a.actor?.slackUserId) ||
    (r.serviceUserId !== undefined && r.serviceUserId === a.actor?.serviceUserId);

  const event =
    a.kind === 'commented'
      ? `comment:${a.taskId}:${a.commentId ?? randomBytes(6).toString('hex')}`
      : `completed:${a.taskId}:${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const url = deps.links?.task(teamId, { ...a, projectId: info?.projectId });
  const about = {
    taskId: a.taskId,
    taskName: info?.name ?? '',
    actor: actorLabel(a.actor),
    ...(url && deps.links ? { open: { label: deps.links.label, url } } : {}),
  };
  const rows: NewOutboxRow[] = people
    .filter((r) => !isActor(r))
    .map((r) => ({
      teamId,
      taskId: event,
      serviceUserId: r.slackUserId ? `slack:${r.slackUserId}` : (r.serviceUserId ?? ''),
      slackUserId: r.slackUserId,
      source: 'slack',
      actorSlackUserId: a.actor?.slackUserId,
      actorServiceUserId: a.actor?.serviceUserId,
      taskName: about.taskName,
      projectId: a.projectId ?? info?.projectId,
      message: JSON.stringify(
        a.kind === 'commented'
          ? commentMessage({ ...about, comment: a.text, role: r.role })
          : completedMessage(about),
      ),
    }));
  if (rows.length === 0) return;
  await deps.store.outbox.enqueue(rows, 'ignore');
  deps.store.outbox.changed();
}

/**
 * Service users → Slack users: a Slack id, `null` for someone with no Slack account, or
 * absent when it cannot be told now (the worker matches those rows itself).
 */
async function matchPeople(
  deps: ActivityDmsDeps,
  teamId: string,
  serviceIds: readonly string[],
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const [slack, work] = await Promise.all([deps.slackFor(teamId), deps.workFor(teamId)]);
  if (serviceIds.length === 0 || !slack || !work) return out;
  const users = await deps.directory
    .usersOf(teamId, work)
    .catch(orDebug(deps.logger, `Service users of ${teamId}`, undefined));
  if (!users) return out;
  for (const id of new Set(serviceIds)) {
    const match = await deps.matcher
      .match(slack, teamId, users.get(id)?.email, id)
      .catch(orDebug(deps.logger, `Matching ${id}`, undefined));
    if (match) out.set(id, match.kind === 'matched' ? match.slackUserId : null);
  }
  return out;
}

/**
 * The recipients as Slack users, one entry per person (an assignee who also created the task
 * is told once, as an assignee). Someone with no Slack account is left out; someone who
 * cannot be matched now keeps their service id.
 */
async function resolve(
  deps: ActivityDmsDeps,
  teamId: string,
  wanted: readonly Recipient[],
): Promise<Recipient[]> {
  const matched = await matchPeople(
    deps,
    teamId,
    wanted.flatMap((r) => (!r.slackUserId && r.serviceUserId ? [r.serviceUserId] : [])),
  );
  const out: Recipient[] = [];
  const seen = new Set<string>();
  for (const r of wanted) {
    const found = r.serviceUserId ? matched.get(r.serviceUserId) : undefined;
    if (!r.slackUserId && found === null) continue;
    const person = found ? { ...r, slackUserId: found } : r;
    const key = person.slackUserId ?? person.serviceUserId ?? '';
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(person);
  }
  return out;
}
