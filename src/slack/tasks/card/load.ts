/**
 * The data of a task card, gathered: project name and statuses, assignee names, and Slack
 * mentions for assignees whose e-mail matches a Slack user. The card itself is a pure
 * function (card/task-card.ts).
 */

import { PRIORITY_NAMES } from '../../../workapi/contract.js';
import { orDebug } from '../../context/error-replies.js';
import type { TaskCardData } from '../../context/ports.js';
import type { TeamReader } from '../../context/team-scope.js';
import { indexedStatusName, statusWords } from '../../format/status-words.js';
import { slackIdsFor, userName, workspaceUsers } from '../../people/service-users.js';
import type { TaskFacts } from '../facts.js';
import { loadProjectInfo, type ProjectInfo } from '../project-info.js';

/**
 * Everything the card shows. Look-ups that fail leave their part out (a card without the
 * project name beats no card); `project` may be passed when already loaded.
 */
export async function taskCardData(
  ctx: TeamReader,
  facts: TaskFacts,
  project?: ProjectInfo,
): Promise<TaskCardData> {
  const [info, users] = await Promise.all([
    project ??
      (facts.projectId
        ? loadProjectInfo(ctx, facts.projectId, { withGroups: !facts.groupName }).catch(
            orDebug(ctx.logger, `Project ${facts.projectId} for a card`, undefined),
          )
        : undefined),
    workspaceUsers(ctx).catch(orDebug(ctx.logger, 'Service users for a card', [])),
  ]);
  const assigned = facts.assigneeIds.map((id) => users.find((u) => u.id === id) ?? { id });
  const slackIds = await slackIdsFor(ctx, assigned);
  // Get task has no TaskNumber nor status id; the index usually knows the number (one #12
  // everywhere) and sometimes the status's name (the same words as the list rows).
  const indexed = await ctx.store.taskIndex.get(ctx.teamId, facts.taskId);
  const number = facts.number ?? indexed?.number;
  const statusName = facts.statusName ?? indexedStatusName(indexed, facts.done);
  const data = cardDataFrom({ ...facts, number, statusName }, info, (id) => {
    const user = assigned.find((u) => u.id === id);
    return {
      name: user ? userName(user) : id,
      slackUserId: slackIds.get(id),
    };
  });
  return withOpenIn(ctx, data, facts.projectId);
}

/** The card data with its "Open in …" address, when one is known. */
export function withOpenIn(
  ctx: Pick<TeamReader, 'deps' | 'teamId'>,
  data: TaskCardData,
  projectId: string | undefined,
): TaskCardData {
  const { links } = ctx.deps;
  const url = links.task(ctx.teamId, { taskId: data.taskId, number: data.number, projectId });
  return url ? { ...data, open: { label: links.label, url } } : data;
}

/** Pure: facts + project + a person resolver → card data. */
export function cardDataFrom(
  facts: TaskFacts,
  project: ProjectInfo | undefined,
  person: (serviceUserId: string) => { name: string; slackUserId?: string },
): TaskCardData {
  // Named only when known (status-words.ts): by its id, else by the name the index was told.
  const byId = facts.statusId
    ? project?.statuses.find((s) => s._id === facts.statusId)?.Name
    : undefined;
  const groupName =
    facts.groupName ??
    (facts.groupId
      ? project?.groups.find((g) => g.groupId === facts.groupId)?.groupName
      : undefined);
  const showPriority = project?.priorityEnabled !== false && facts.priority !== undefined;
  return {
    taskId: facts.taskId,
    name: facts.name,
    number: facts.number,
    projectName: project?.name,
    groupName: groupName ?? undefined,
    status: { name: statusWords(byId ?? facts.statusName, facts.done), done: facts.done },
    assignees: facts.assigneeIds.map(person),
    dueDate: facts.dueDate,
    priorityName: showPriority ? PRIORITY_NAMES[facts.priority ?? 0] : undefined,
    estimate: project?.estimateEnabled === false ? undefined : facts.estimate,
    milestone: project?.milestoneEnabled === false ? undefined : facts.milestone,
  };
}
