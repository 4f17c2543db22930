/**
 * The two project operations the hosted service's public clients call beyond the spec
 * (docs/service-extensions.md): list the workspace's projects, and delete a project.
 */
import type { Project } from '../workapi/contract.js';
import { type Db, sql, transact } from './db.js';
import { forgetProjectLists } from './list-cache.js';
import { getProject, loadProject } from './projects.js';
import { forgetProjectReferences } from './reference-cache.js';
import { forgetTask } from './task-cache.js';
import type { Caller } from './workspaces.js';

/** `GET {base}/project`: every project of the caller's workspace, by name. */
export function listProjects(db: Db, caller: Caller): Project[] {
  return sql<{ id: string }>(
    db,
    'SELECT id FROM projects WHERE workspace_id = ? ORDER BY name COLLATE NOCASE, id',
  )
    .all(caller.workspaceId)
    .map((row) => getProject(db, caller, row.id));
}

/**
 * `DELETE {base}/project/{projectId}`: the project goes with everything in it — its tasks
 * (with their comments, files, assignees), statuses, groups, labels and favourites — in one
 * transaction; reads of any of them then answer 404, as for an id that never existed. The
 * hosted web app deletes a project's tasks with it; keeping orphan tasks that no project list
 * can reach would leave tasks nobody can find. Unknown or foreign project → 404.
 */
export function deleteProject(db: Db, caller: Caller, projectId: string): void {
  transact(db, () => {
    const project = loadProject(db, caller.workspaceId, projectId);
    const taskIds = sql<{ id: string }>(db, 'SELECT id FROM tasks WHERE project_id = ?')
      .all(project.id)
      .map((r) => r.id);
    const ofTasks = 'task_id IN (SELECT id FROM tasks WHERE project_id = ?)';
    for (const table of ['activities', 'task_files', 'task_assignees']) {
      sql(db, `DELETE FROM ${table} WHERE ${ofTasks}`).run(project.id);
    }
    // Parent links stay inside a project; cut them so the rows can go in any order.
    sql(db, 'UPDATE tasks SET parent_task_id = NULL WHERE project_id = ?').run(project.id);
    for (const table of [
      'tasks',
      'project_task_counts',
      'project_assignees',
      'statuses',
      'task_groups',
      'labels',
      'project_favorites',
    ]) {
      sql(db, `DELETE FROM ${table} WHERE project_id = ?`).run(project.id);
    }
    sql(db, 'DELETE FROM projects WHERE id = ?').run(project.id);
    forgetProjectLists(db, project.id);
    forgetProjectReferences(db, project.id);
    for (const id of taskIds) forgetTask(db, id);
  });
}
