/**
 * The rows every create task checks against, kept in memory: a project's settings (its
 * workspace and feature flags), its statuses and groups, its largest task number, and users.
 * Each create read them again (five statements, a fifth of a create's time), and they change
 * only when a project is updated or deleted; statuses and groups are made with their project,
 * users are never changed or deleted.
 *
 * Correctness rests on three invalidations:
 * - this connection's writes: `forgetProjectReferences` after a project's own row, statuses
 *   or groups change (projects.ts and project-extensions.ts do);
 * - rollbacks: the cache is filled inside write transactions, so one that is rolled back may
 *   have shown it rows that never were; every rollback of this connection empties it
 *   (db.ts `onRollback`, from `transact` and the group commit);
 * - other connections: SQLite's `PRAGMA data_version` changes when they commit, and then
 *   everything is dropped, as in task-cache.ts.
 * test/service/reference-cache.test.ts covers each of them.
 */

import { type Db, dataVersion, onRollback, sql } from './db.js';
import { type GroupRow, groupRows } from './groups.js';
import { perConnection } from './per-connection.js';
import { listStatuses, type StatusRow } from './statuses.js';

/** A project's settings that task writes check: its workspace and its feature flags. */
export interface ProjectSettings {
  id: string;
  workspace_id: string;
  priority_enabled: number;
  default_priority: number;
  estimate_enabled: number;
  milestone_enabled: number;
  groups_enabled: number;
  labels_enabled: number;
}

export interface ProjectReferences {
  project: ProjectSettings;
  /** In position order. */
  statuses: readonly StatusRow[];
  /** The status a task gets when none is asked for: the default one, else the first. */
  defaultStatus: StatusRow;
  groups: readonly GroupRow[];
  /**
   * The project's largest task number, once a create has read it (task-create.ts): the next
   * create numbers on from here without asking SQLite. Only creates add tasks, and each sets
   * it; a rolled-back one empties the whole cache, as another connection's commit does.
   */
  lastTaskNumber?: number;
}

export interface UserReference {
  id: string;
  name: string;
  email: string;
}

interface CachedUser extends UserReference {
  workspace_id: string;
}

const MAX_PROJECTS = 10_000;
const MAX_USERS = 100_000;

export class ReferenceCache {
  private readonly projects = new Map<string, ProjectReferences>();
  private readonly users = new Map<string, CachedUser>();
  private dataVersion = -1;

  constructor(private readonly db: Db) {
    onRollback(db, () => this.clear());
  }

  project(workspaceId: string, projectId: string): ProjectReferences | undefined {
    let refs = this.projects.get(projectId);
    if (!refs) {
      refs = readProject(this.db, projectId);
      if (!refs) return undefined;
      if (this.projects.size >= MAX_PROJECTS) this.projects.clear();
      this.projects.set(projectId, refs);
    }
    return refs.project.workspace_id === workspaceId ? refs : undefined;
  }

  /** The users of the workspace among `ids`, in the order asked (unknown ones left out). */
  usersOf(workspaceId: string, ids: readonly string[]): UserReference[] {
    const found: UserReference[] = [];
    for (const id of ids) {
      let user = this.users.get(id);
      if (!user) {
        user = sql<CachedUser>(
          this.db,
          'SELECT id, name, email, workspace_id FROM users WHERE id = ?',
        ).get(id);
        if (!user) continue;
        if (this.users.size >= MAX_USERS) this.users.clear();
        this.users.set(id, user);
      }
      if (user.workspace_id === workspaceId) {
        found.push({ id: user.id, name: user.name, email: user.email });
      }
    }
    return found;
  }

  forgetProject(projectId: string): void {
    this.projects.delete(projectId);
  }

  clear(): void {
    this.projects.clear();
    this.users.clear();
  }

  dropIfChangedElsewhere(): void {
    const version = dataVersion(this.db);
    if (version !== this.dataVersion) {
      this.clear();
      this.dataVersion = version;
    }
  }
}

function readProject(db: Db, projectId: string): ProjectReferences | undefined {
  const project = sql<ProjectSettings>(
    db,
    `SELECT id, workspace_id, priority_enabled, default_priority, estimate_enabled,
            milestone_enabled, groups_enabled, labels_enabled
       FROM projects WHERE id = ?`,
  ).get(projectId);
  if (!project) return undefined;
  const statuses = listStatuses(db, projectId);
  // As SQL's ORDER BY is_default DESC, position: the default one, else the first.
  const defaultStatus = statuses.find((s) => s.is_default === 1) ?? statuses[0];
  if (!defaultStatus) throw new Error(`project ${projectId} has no statuses`);
  return { project, statuses, defaultStatus, groups: groupRows(db, projectId) };
}

const cacheOf = perConnection((db) => new ReferenceCache(db));

/**
 * The cache, checked against other connections' commits now: take it once per operation (a
 * create checks it once, not once per look-up) and do not keep it across operations.
 */
export function referenceCache(db: Db): ReferenceCache {
  const cache = cacheOf(db);
  cache.dropIfChangedElsewhere();
  return cache;
}

/** Call whenever this connection changes a project's row, statuses or groups. */
export function forgetProjectReferences(db: Db, projectId: string): void {
  cacheOf(db).forgetProject(projectId);
}
