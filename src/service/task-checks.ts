/**
 * What a create- or update-task body may ask of its project: fields whose feature is on, and
 * a status, group and assignees that exist there. Each refusal is a 400 naming the field.
 */
import type { CreateTaskBody } from '../workapi/contract.js';
import { badRequest } from './errors.js';
import { type Features, featuresOf } from './projects.js';
import type {
  ProjectReferences,
  ProjectSettings,
  ReferenceCache,
  UserReference,
} from './reference-cache.js';
import type { Caller } from './workspaces.js';

/** Which project feature each task field needs (docs/design.md, feature flags). */
const FEATURE_OF_FIELD: readonly {
  field: 'priority' | 'estimateTime' | 'milestoneId' | 'groupId';
  feature: Exclude<keyof Features, 'defaultPriority'>;
}[] = [
  { field: 'priority', feature: 'priority' },
  { field: 'estimateTime', feature: 'estimate' },
  { field: 'milestoneId', feature: 'milestone' },
  { field: 'groupId', feature: 'groups' },
];

/** Refuses a task field whose feature is off for the project. */
export function checkFeatures(project: ProjectSettings, body: CreateTaskBody): void {
  const enabled = featuresOf(project);
  for (const { field, feature } of FEATURE_OF_FIELD) {
    if (body[field] !== undefined && !enabled[feature]) {
      throw badRequest(field, `the ${feature} feature is off for this project`);
    }
  }
}

/** Body references checked against the project and workspace; each unknown one is a 400. */
export function checkReferences(
  /** As taken for this operation (reference-cache.ts). */
  cache: ReferenceCache,
  caller: Caller,
  refs: ProjectReferences,
  body: CreateTaskBody,
) {
  const status =
    body.statusId === undefined ? undefined : refs.statuses.find((s) => s.id === body.statusId);
  if (body.statusId !== undefined && !status) {
    throw badRequest('statusId', 'no status with this id in this project');
  }
  const group =
    body.groupId === undefined ? undefined : refs.groups.find((g) => g.id === body.groupId);
  if (body.groupId !== undefined && !group) {
    throw badRequest('groupId', 'no group with this id in this project');
  }
  let assignees: { ids: string[]; users: UserReference[] } | undefined;
  if (body.taskUsers !== undefined) {
    const ids = [...new Set(body.taskUsers)];
    // In the order asked: the ones found are all of them exactly when none is unknown.
    const users = cache.usersOf(caller.workspaceId, ids);
    const unknown = ids.find((id, i) => users[i]?.id !== id);
    if (unknown !== undefined) {
      throw badRequest('taskUsers', `no user ${unknown} in this workspace`);
    }
    assignees = { ids, users };
  }
  return { status, group, assignees };
}
