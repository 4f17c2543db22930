/**
 * `/work list` and its paging buttons: each asks the service for its one page (limit/offset;
 * a service without paging answers the whole list and WorkClient cuts the page). The list
 * endpoint gives ids and names only, so the page's tasks are read with get task, at most 8
 * at a time, to show status, due date and assignees.
 */
import { errMessage, orDebug } from '../../context/error-replies.js';
import type { WorkContext } from '../../context/work-context.js';
import { indexedStatusName } from '../../format/status-words.js';
import { userName, workspaceUsers } from '../../people/service-users.js';
import { mapLimit } from '../../shared/concurrency.js';
import { cardDataFrom, withOpenIn } from '../card/load.js';
import { factsFromTask } from '../facts.js';
import { dateIn } from '../mine/due-groups.js';
import { loadProjectInfo } from '../project-info.js';
import { type ListFilter, PAGE_SIZE, pageCount, type TaskListData } from './task-list-page.js';

export const LIST_CONCURRENCY = 8;

export type ListArgs =
  | { ok: true; filter: ListFilter; project?: string }
  | { ok: false; error: string };

const FILTERS: readonly ListFilter[] = ['open', 'done', 'all'];
const filterOf = (word: string | undefined) => FILTERS.find((f) => f === word?.toLowerCase());

/**
 * `[open|done|all] [project]` in either order: the filter is the first or the last word; the
 * rest names the project (words of its name, or its id).
 */
export function parseListArgs(words: readonly string[]): ListArgs {
  const rest = [...words];
  const first = filterOf(rest[0]);
  if (first) rest.shift();
  const last = rest.length > 0 ? filterOf(rest.at(-1)) : undefined;
  if (last) rest.pop();
  if (first && last && first !== last) {
    return { ok: false, error: 'Give one of open, done or all.' };
  }
  const project = rest.join(' ').trim();
  return { ok: true, filter: first ?? last ?? 'open', ...(project ? { project } : {}) };
}

export async function loadListPage(
  ctx: WorkContext,
  input: { projectId: string; filter: ListFilter; page: number },
): Promise<TaskListData> {
  const complete = input.filter === 'open' ? false : input.filter === 'done' ? true : undefined;
  const want = Math.max(0, input.page);
  const listPage = (page: number) =>
    ctx.work.listTasksPage(
      { projectId: input.projectId, complete },
      { limit: PAGE_SIZE, offset: page * PAGE_SIZE },
    );
  // Both at once; a project error is reported before a list error (it names the project).
  const [projectResult, listResult] = await Promise.allSettled([
    loadProjectInfo(ctx, input.projectId),
    listPage(want),
  ]);
  if (projectResult.status === 'rejected') throw projectResult.reason;
  if (listResult.status === 'rejected') throw listResult.reason;
  const project = projectResult.value;
  let { tasks: slice, total } = listResult.value;
  // Past the end (the list got shorter since the buttons were drawn): its last page.
  const page = Math.min(want, pageCount(total) - 1);
  if (page !== want) ({ tasks: slice, total } = await listPage(page));
  const users = await workspaceUsers(ctx).catch(orDebug(ctx.logger, 'Service users', []));
  const person = (id: string) => {
    const u = users.find((x) => x.id === id);
    return { name: u ? userName(u) : id };
  };
  const reads = await mapLimit(slice, LIST_CONCURRENCY, async (item) => {
    try {
      return { item, facts: factsFromTask(await ctx.work.getTask(item.taskId)) };
    } catch (e) {
      // One unreadable task does not spoil the page.
      ctx.logger.debug(`Task ${item.taskId} of a list page: ${errMessage(e)}`);
      return { item };
    }
  });
  // What the index knows of the page (numbers, status names), read after the reads wrote
  // to it, in one query: a look-up per row was 20 per list.
  const read = reads.flatMap((r) => (r.facts ? [r.item.taskId] : []));
  const indexed = new Map(
    (await ctx.store.taskIndex.getMany(ctx.teamId, read)).map((t) => [t.taskId, t]),
  );
  const rows = reads.map(({ item, facts }) => {
    if (!facts) {
      return {
        taskId: item.taskId,
        name: item.taskName ?? item.taskId,
        status: { name: '', done: false },
        assignees: [],
        partial: true,
      };
    }
    const row = indexed.get(item.taskId);
    const known = { number: row?.number, statusName: indexedStatusName(row, facts.done) };
    return withOpenIn(ctx, cardDataFrom({ ...facts, ...known }, project, person), facts.projectId);
  });
  const now = ctx.deps.clock?.() ?? Date.now();
  return {
    today: dateIn(await ctx.userTimeZone(), now),
    projectId: project.id,
    projectName: project.name,
    filter: input.filter,
    page,
    total,
    rows,
  };
}
