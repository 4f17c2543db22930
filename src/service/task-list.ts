/** Operation 3, list tasks: a project's tasks by TaskNumber, whole or a page, from a cache. */
import type { ListTasksQuery, TaskListItem } from '../workapi/contract.js';
import { type Db, sql } from './db.js';
import { type ListAnswer, listCache, listKey } from './list-cache.js';
import { loadProject } from './projects.js';
import type { Caller } from './workspaces.js';

/** List tasks' query once validated: `complete` is a boolean by then. */
export type ListTaskQuery = Pick<ListTasksQuery, 'projectId' | 'limit' | 'offset'> & {
  complete?: boolean | 'true' | 'false';
};

/**
 * Operation 3 as JSON bytes, answered from the list cache (list-cache.ts) when this query
 * was answered before and no write to the project's tasks came since. The project is in the
 * query: unknown → 404.
 */
export function listTasksJson(db: Db, caller: Caller, query: ListTaskQuery): ListAnswer {
  const complete =
    query.complete === undefined
      ? undefined
      : query.complete === true || query.complete === 'true'
        ? 1
        : 0;
  const cache = listCache(db);
  const key = listKey(caller.workspaceId, query.projectId, complete, query.limit, query.offset);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const project = loadProject(db, caller.workspaceId, query.projectId);
  const answer = readList(db, project.id, complete, query);
  // Only committed state is cached: this runs outside any transaction of ours.
  if (!db.inTransaction) cache.set(key, project.id, answer);
  return answer;
}

/**
 * Operation 3 uncached: the matches by TaskNumber, as JSON bytes (SQLite builds the array: a
 * project of 10,000 tasks lists without 10,000 intermediate objects). The rows are read in
 * TaskNumber order from the index in a subquery, so the aggregate needs no sort of its own
 * (an ORDER BY inside json_group_array sorts every row in a temporary B-tree). With `limit`
 * or `offset` only that page is built, and `total` is the whole list's length.
 */
function readList(
  db: Db,
  projectId: string,
  complete: 0 | 1 | undefined,
  query: ListTaskQuery,
): ListAnswer {
  const filter = complete === undefined ? '' : 'AND complete = @complete';
  const paged = query.limit !== undefined || query.offset !== undefined;
  const params = {
    project: projectId,
    complete: complete ?? 0,
    limit: query.limit ?? -1,
    offset: query.offset ?? 0,
  };
  const json =
    sql<{ json: string }>(
      db,
      `SELECT json_group_array(json_object('taskId', id, 'taskName', name,
                                           'taskNumber', task_number)) AS json
         FROM (SELECT id, name, task_number FROM tasks WHERE project_id = @project ${filter}
                ORDER BY task_number LIMIT @limit OFFSET @offset)`,
    ).get(params)?.json ?? '[]';
  const body = Buffer.from(json);
  if (!paged) return { body };
  // project_task_counts is kept by triggers on tasks (migrations.ts, entry 2).
  const total =
    sql<{ n: number | null }>(
      db,
      `SELECT SUM(tasks) AS n FROM project_task_counts WHERE project_id = @project ${filter}`,
    ).get(params)?.n ?? 0;
  return { body, total };
}

/** Operation 3, as objects (readList gives the shape). */
export function listTasks(db: Db, caller: Caller, query: ListTaskQuery): TaskListItem[] {
  const items: TaskListItem[] = JSON.parse(listTasksJson(db, caller, query).body.toString());
  return items;
}
