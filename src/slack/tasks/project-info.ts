/**
 * What task features need to know about a project: its name, feature flags, statuses (in
 * Index order) and groups — from get project details (+ list project groups when groups are
 * on). Every successful look-up is remembered in known_projects, so the create form's
 * project menu offers it next time.
 */

import type { Group, ProjectDetails, StatusEntry } from '../../workapi/contract.js';
import { STATUS_TYPE } from '../../workapi/contract.js';
import { orDebug } from '../context/error-replies.js';
import type { TeamScope } from '../context/team-scope.js';
import { rememberProject } from '../shared/project-context.js';

export interface ProjectInfo {
  id: string;
  name: string;
  priorityEnabled: boolean;
  /** 0–4; the project's default for new tasks. */
  defaultPriority: number;
  estimateEnabled: boolean;
  milestoneEnabled: boolean;
  groupsEnabled: boolean;
  /** Sorted by Index. */
  statuses: StatusEntry[];
  /** Empty when groups are off or were not asked for. */
  groups: Group[];
}

/** Details (and groups when enabled and `withGroups`) of a project; remembers its name. */
export async function loadProjectInfo(
  ctx: TeamScope,
  projectId: string,
  { withGroups = true }: { withGroups?: boolean } = {},
): Promise<ProjectInfo> {
  // Both in parallel: groups of a project without the feature are simply not shown.
  const groups = withGroups
    ? ctx.work
        .listProjectGroups(projectId)
        .catch(orDebug<Group[]>(ctx.logger, `Groups of ${projectId}`, []))
    : Promise.resolve<Group[]>([]);
  const details = await ctx.work.getProjectDetails(projectId);
  const info = projectInfo(details, await groups);
  await rememberProject(ctx, info.id, info.name);
  return info;
}

/** Pure: the details (and groups) as ProjectInfo. */
export function projectInfo(details: ProjectDetails, groups: readonly Group[] = []): ProjectInfo {
  const groupsEnabled = details.IsGroupEnabled !== false;
  return {
    id: details._id,
    name: details.Name?.trim() || details._id,
    priorityEnabled: details.Priority?.Enabled !== false,
    defaultPriority: details.Priority?.Default ?? 0,
    estimateEnabled: details.IsEstimate !== false,
    milestoneEnabled: details.IsMilestone !== false,
    groupsEnabled,
    statuses: sortStatuses(details.Status ?? []),
    groups: groupsEnabled ? [...groups] : [],
  };
}

export function sortStatuses(statuses: readonly StatusEntry[]): StatusEntry[] {
  return statuses
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (a.s.Index ?? a.i) - (b.s.Index ?? b.i) || a.i - b.i)
    .map((x) => x.s);
}

/** The project's FIRST Type-3 ("done") status by Index. */
export function firstDoneStatus(statuses: readonly StatusEntry[]): StatusEntry | undefined {
  return sortStatuses(statuses).find((s) => s.Type === STATUS_TYPE.done);
}

/** The status a new task gets: the Default one, else the first. */
export function defaultStatus(statuses: readonly StatusEntry[]): StatusEntry | undefined {
  return statuses.find((s) => s.Default) ?? sortStatuses(statuses)[0];
}

/**
 * The status of a task when only its done flag is known (get task has no status id): the
 * one status of that kind if there is exactly one, else undefined.
 */
export function statusFromDoneFlag(
  statuses: readonly StatusEntry[],
  done: boolean,
): StatusEntry | undefined {
  const kind = statuses.filter((s) => (s.Type === STATUS_TYPE.done) === done);
  return kind.length === 1 ? kind[0] : undefined;
}
