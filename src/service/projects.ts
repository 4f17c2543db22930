import {
  type CreateProjectBody,
  PRIORITY_NAMES,
  type Project,
  type ProjectDetails,
  type UpdateProjectBody,
} from '../workapi/contract.js';
import { customerExists } from './customers.js';
import { type Db, sql, transact } from './db.js';
import { badRequest, notFound } from './errors.js';
import { groupRows, insertGroups } from './groups.js';
import { insertLabels, type LabelSpec, labelEntries } from './labels.js';
import { newId } from './new-ids.js';
import { forgetProjectReferences, type ProjectSettings } from './reference-cache.js';
import {
  DEFAULT_STATUSES,
  insertStatuses,
  listStatuses,
  type StatusSpec,
  statusEntry,
} from './statuses.js';
import { dateTimeOf, nowIso } from './time.js';
import type { Caller } from './workspaces.js';

/** A project's feature flags (docs/design.md, feature flags). */
export interface Features {
  priority: boolean;
  /** 0-4, the priority a new task gets when it gives none and priority is enabled. */
  defaultPriority: number;
  estimate: boolean;
  milestone: boolean;
  groups: boolean;
  labels: boolean;
}

/**
 * Flags of a project created without a template: everything on, default priority
 * "No Priority". A new project accepts every task field until someone turns a feature off.
 */
const DEFAULT_FEATURES: Features = {
  priority: true,
  defaultPriority: 0,
  estimate: true,
  milestone: true,
  groups: true,
  labels: true,
};

/** A project's row: its settings (id, workspace, feature flags) and the rest. */
export interface ProjectRow extends ProjectSettings {
  name: string;
  description: string;
  owner_id: string;
  customer_id: string | null;
  start_date: string | null;
  due_date: string | null;
  icon_type: number;
  icon_reference: string;
  icon_color: number;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

/** Everything a new project can be given; what is left out gets the defaults above. */
export interface ProjectSpec {
  name: string;
  description?: string;
  customerId?: string | null;
  startDate?: string | null;
  dueDate?: string | null;
  features?: Partial<Features>;
  statuses?: readonly StatusSpec[];
  groups?: readonly string[];
  labels?: readonly LabelSpec[];
}

/** Inserts a project owned by the caller; no validation (callers check references). */
export function insertProject(
  db: Db,
  caller: Pick<Caller, 'workspaceId' | 'userId'>,
  spec: ProjectSpec,
): string {
  const id = newId();
  const now = nowIso();
  const f = { ...DEFAULT_FEATURES, ...spec.features };
  const icon = iconFor(spec.name);
  sql(
    db,
    `INSERT INTO projects (id, workspace_id, name, description, owner_id, customer_id, start_date,
       due_date, priority_enabled, default_priority, estimate_enabled, milestone_enabled,
       groups_enabled, labels_enabled, icon_type, icon_reference, icon_color, created_by,
       updated_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    caller.workspaceId,
    spec.name,
    spec.description ?? '',
    caller.userId,
    spec.customerId ?? null,
    spec.startDate ?? null,
    spec.dueDate ?? null,
    bit(f.priority),
    f.defaultPriority,
    bit(f.estimate),
    bit(f.milestone),
    bit(f.groups),
    bit(f.labels),
    icon.type,
    icon.reference,
    icon.color,
    caller.userId,
    caller.userId,
    now,
    now,
  );
  insertStatuses(db, id, spec.statuses ?? DEFAULT_STATUSES);
  insertGroups(db, id, spec.groups ?? []);
  insertLabels(db, id, caller.userId, spec.labels ?? []);
  forgetProjectReferences(db, id);
  return id;
}

/** The project if it belongs to the workspace. */
export function findProject(
  db: Db,
  workspaceId: string,
  projectId: string,
): ProjectRow | undefined {
  return sql<ProjectRow>(db, 'SELECT * FROM projects WHERE id = ? AND workspace_id = ?').get(
    projectId,
    workspaceId,
  );
}

/** A project named in the path: unknown or foreign → 404. */
export function loadProject(db: Db, workspaceId: string, projectId: string): ProjectRow {
  const row = findProject(db, workspaceId, projectId);
  if (!row) throw notFound('project', projectId);
  return row;
}

export function featuresOf(row: ProjectSettings): Features {
  return {
    priority: row.priority_enabled === 1,
    defaultPriority: row.default_priority,
    estimate: row.estimate_enabled === 1,
    milestone: row.milestone_enabled === 1,
    groups: row.groups_enabled === 1,
    labels: row.labels_enabled === 1,
  };
}

/** Operation 7. customerId and templateId are body fields: unknown ones answer 400. */
export function createProject(db: Db, caller: Caller, body: CreateProjectBody): Project {
  return transact(db, () => {
    if (body.customerId !== undefined && !customerExists(db, caller.workspaceId, body.customerId)) {
      throw badRequest('customerId', 'no customer with this id in this workspace');
    }
    const spec: ProjectSpec = {
      name: body.projectName,
      customerId: body.customerId,
      startDate: body.startDate,
      dueDate: body.dueDate,
    };
    if (body.templateId !== undefined) {
      const template = findProject(db, caller.workspaceId, body.templateId);
      if (!template) throw badRequest('templateId', 'no project with this id in this workspace');
      // A template gives statuses, groups, labels and feature flags, never tasks.
      spec.features = featuresOf(template);
      spec.statuses = listStatuses(db, template.id).map((s) => ({
        name: s.name,
        type: s.type as 1 | 2 | 3,
        isDefault: s.is_default === 1,
      }));
      spec.groups = groupRows(db, template.id).map((g) => g.name);
      spec.labels = labelEntries(db, template.id).map((l) => ({ name: l.Name, color: l.Color }));
    }
    const id = insertProject(db, caller, spec);
    return projectResponse(db, loadProject(db, caller.workspaceId, id));
  });
}

/** Operation 8. */
export function getProject(db: Db, caller: Caller, projectId: string): Project {
  return projectResponse(db, loadProject(db, caller.workspaceId, projectId));
}

/** Operation 9: a partial update; the date order rule also holds against stored dates. */
export function updateProject(
  db: Db,
  caller: Caller,
  projectId: string,
  body: UpdateProjectBody,
): Project {
  return transact(db, () => {
    const row = loadProject(db, caller.workspaceId, projectId);
    if (body.customerId !== undefined && !customerExists(db, caller.workspaceId, body.customerId)) {
      throw badRequest('customerId', 'no customer with this id in this workspace');
    }
    const startDate = body.startDate ?? row.start_date;
    const dueDate = body.dueDate ?? row.due_date;
    if (startDate !== null && dueDate !== null && dueDate < startDate) {
      throw body.dueDate !== undefined
        ? badRequest('dueDate', `must not be before startDate (${startDate})`)
        : badRequest('startDate', `must not be after dueDate (${dueDate})`);
    }
    const f = featuresOf(row);
    const defaultPriority =
      body.defaultPriority === undefined
        ? f.defaultPriority
        : PRIORITY_NAMES.indexOf(body.defaultPriority);
    sql(
      db,
      `UPDATE projects SET name = ?, customer_id = ?, start_date = ?, due_date = ?,
         description = ?, priority_enabled = ?, default_priority = ?, estimate_enabled = ?,
         milestone_enabled = ?, updated_by = ?, updated_at = ?
       WHERE id = ?`,
    ).run(
      body.projectName ?? row.name,
      body.customerId ?? row.customer_id,
      startDate,
      dueDate,
      body.description ?? row.description,
      bit(body.priority ?? f.priority),
      defaultPriority,
      bit(body.estimate ?? f.estimate),
      bit(body.milestone ?? f.milestone),
      caller.userId,
      nowIso(),
      row.id,
    );
    forgetProjectReferences(db, row.id);
    return projectResponse(db, loadProject(db, caller.workspaceId, row.id));
  });
}

/**
 * projectUsers: the owner first, then every workspace user assigned to one of the project's
 * tasks, by name. The spec (docs/work-management-api.md) says only "user ids associated with the project"; owner plus
 * assignees is what a reader of the project would call associated.
 */
export function projectUsers(db: Db, row: ProjectRow): string[] {
  // project_assignees is kept by triggers on task_assignees (migrations.ts, entry 2).
  const assignees = sql<{ user_id: string }>(
    db,
    `SELECT pa.user_id FROM project_assignees pa
       JOIN users u ON u.id = pa.user_id
      WHERE pa.project_id = ? AND pa.user_id <> ?
      ORDER BY u.name, u.id`,
  ).all(row.id, row.owner_id);
  return [row.owner_id, ...assignees.map((a) => a.user_id)];
}

export function favoriteUsers(db: Db, projectId: string): string[] {
  return sql<{ user_id: string }>(
    db,
    'SELECT user_id FROM project_favorites WHERE project_id = ? ORDER BY rowid',
  )
    .all(projectId)
    .map((r) => r.user_id);
}

function projectResponse(db: Db, row: ProjectRow): Project {
  return {
    projectId: row.id,
    projectName: row.name,
    workspaceId: row.workspace_id,
    ownerId: row.owner_id,
    description: row.description,
    customerId: row.customer_id,
    startDate: dateTimeOf(row.start_date),
    dueDate: dateTimeOf(row.due_date),
    favoriteUsers: favoriteUsers(db, row.id),
    projectUsers: projectUsers(db, row),
  };
}

/** Operation 10. Fields the embedded service has no feature for carry neutral values. */
export function projectDetails(db: Db, caller: Caller, projectId: string): ProjectDetails {
  const row = loadProject(db, caller.workspaceId, projectId);
  const f = featuresOf(row);
  return {
    _id: row.id,
    Name: row.name,
    CompanyId: row.workspace_id,
    Description: row.description,
    CreatedBy: row.created_by,
    CreatedTime: row.created_at,
    UpdatedTime: row.updated_at,
    StartDate: dateTimeOf(row.start_date),
    CustomerId: row.customer_id,
    IsMilestone: f.milestone,
    IsEstimate: f.estimate,
    Priority: { Enabled: f.priority, Default: f.defaultPriority },
    FavoriteUsers: favoriteUsers(db, row.id),
    LabelsList: labelEntries(db, row.id),
    ScmRepository: null,
    LabelsEnabled: f.labels,
    StatusEnable: true,
    IsGroupEnabled: f.groups,
    MultiAsignee: true,
    Icon: { Type: row.icon_type, Reference: row.icon_reference, Color: row.icon_color },
    taskFilter: {},
    Resources: [],
    deployProject: { id: '', AccountId: '', Name: '', ScmRepoId: '' },
    ProjectUsers: projectUsers(db, row),
    Status: listStatuses(db, row.id).map(statusEntry),
  };
}

function bit(b: boolean): number {
  return b ? 1 : 0;
}

/** A letter icon (Type 1): the name's first letter on one of 12 colours picked from the name. */
function iconFor(name: string): { type: number; reference: string; color: number } {
  const letter = [...name.trim()][0]?.toUpperCase() ?? '?';
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return { type: 1, reference: letter, color: hash % 12 };
}
