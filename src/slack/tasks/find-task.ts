/**
 * A task named by a person, three ways: its id, `#12` (the channel's project, or
 * `#12 in <project words>`), or words of its name. Words and numbers are looked up in the
 * task index; when it knows nothing yet, the projects concerned are listed first (once per
 * few minutes, through the refresh) and the look-up is tried again.
 */
import type { IndexedTask } from '../../store/index.js';
import type { WorkContext } from '../context/work-context.js';
import { decodeSlackEntities, esc } from '../format/text.js';
import { findProject } from '../projects/find-project.js';
import { channelProjectId } from '../shared/project-context.js';

/** How many candidates a pick list shows. */
export const PICK_LIMIT = 5;

/** Matches counted at most, so "11 match" is exact (the index answers this from SQLite). */
export const COUNT_LIMIT = 500;

export type FoundTask =
  | { kind: 'one'; taskId: string; task?: IndexedTask }
  /** `total`: how many match in all (exact up to COUNT_LIMIT); `tasks`: the first few. */
  | { kind: 'many'; tasks: IndexedTask[]; total: number }
  | { kind: 'none'; message: string };

/** What a reference looks like, before any look-up. */
export type TaskRef =
  | { kind: 'id'; id: string }
  | { kind: 'number'; number: number; projectWords?: string }
  | { kind: 'words'; words: string };

const ID = /^[A-Za-z0-9_-]{20,100}$/;

/** Reads a reference (the whole text given); undefined when empty. */
export function parseTaskRef(raw: string): TaskRef | undefined {
  const text = decodeSlackEntities(raw).trim();
  if (!text) return undefined;
  const number = /^#(\d{1,9})(?:\s+in\s+(.+))?$/i.exec(text);
  if (number) {
    return { kind: 'number', number: Number(number[1]), projectWords: number[2]?.trim() };
  }
  // Service ids are 24 hex characters; other deployments' ids are long and have no spaces.
  if (/^[0-9a-f]{24}$/i.test(text) || (ID.test(text) && /\d/.test(text))) {
    return { kind: 'id', id: text };
  }
  return { kind: 'words', words: text };
}

/** Finds the task a reference means (`openOnly`: done tasks are not candidates). */
export async function findTask(
  ctx: WorkContext,
  ref: TaskRef,
  { openOnly = false }: { openOnly?: boolean } = {},
): Promise<FoundTask> {
  const index = ctx.store.taskIndex;
  if (ref.kind === 'id')
    return { kind: 'one', taskId: ref.id, task: await index.get(ctx.teamId, ref.id) };

  if (ref.kind === 'number') {
    const project = ref.projectWords
      ? await projectByWords(ctx, ref.projectWords)
      : await channelProjectId(ctx);
    if (!project) {
      return {
        kind: 'none',
        message: ref.projectWords
          ? `No project Worklink knows is called *${esc(ref.projectWords)}*. Try \`/work task #${ref.number} in <project name>\` with words of its name.`
          : `This channel has no project, so \`#${ref.number}\` is ambiguous. Say which project: \`/work task #${ref.number} in <project name>\`.`,
      };
    }
    let task = await index.byNumber(ctx.teamId, project, ref.number);
    if (!task && (await warm(ctx, [project])))
      task = await index.byNumber(ctx.teamId, project, ref.number);
    if (task) return { kind: 'one', taskId: task.taskId, task };
    return {
      kind: 'none',
      message: `There is no task #${ref.number} in *${esc(await projectName(ctx, project))}*.`,
    };
  }

  const search = () => index.search(ctx.teamId, ref.words, { openOnly, limit: COUNT_LIMIT });
  let tasks = await search();
  if (tasks.length === 0) {
    const here = await channelProjectId(ctx);
    if (
      await warm(
        ctx,
        here
          ? [here]
          : (await ctx.store.knownProjects.list(ctx.teamId, 20)).map((p) => p.projectId),
      )
    ) {
      tasks = await search();
    }
  }
  if (tasks.length === 0) {
    return {
      kind: 'none',
      message: `No ${openOnly ? 'open ' : ''}task matches “${esc(ref.words)}”. Create it with \`/work new ${esc(ref.words)}\`.`,
    };
  }
  if (tasks.length === 1) return { kind: 'one', taskId: tasks[0]!.taskId, task: tasks[0] };
  // Exactly one task has this very name: that is the one meant.
  const exact = tasks.filter((t) => sameWords(t.name, ref.words));
  if (exact.length === 1) return { kind: 'one', taskId: exact[0]!.taskId, task: exact[0] };
  // Open tasks in the channel's project first.
  const here = await channelProjectId(ctx);
  const ranked = here
    ? [...tasks].sort((a, b) => Number(a.projectId !== here) - Number(b.projectId !== here))
    : tasks;
  return { kind: 'many', tasks: ranked.slice(0, PICK_LIMIT), total: tasks.length };
}

function sameWords(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return norm(a) === norm(b);
}

/** The project these words name (find-project.ts); the first of several, the likeliest. */
export async function projectByWords(ctx: WorkContext, words: string): Promise<string | undefined> {
  const found = await findProject(ctx, words);
  if (found.kind === 'one') return found.projectId;
  return found.kind === 'many' ? found.projects[0]?.projectId : undefined;
}

export async function projectName(ctx: WorkContext, projectId: string): Promise<string> {
  return (await ctx.store.knownProjects.get(ctx.teamId, projectId))?.projectName ?? projectId;
}

/** Lists projects the index has not read lately; true when anything was read. */
async function warm(ctx: WorkContext, projectIds: string[]): Promise<boolean> {
  const refresh = ctx.deps.indexRefresh;
  if (!refresh || !ctx.connection) return false;
  let read = false;
  for (const projectId of projectIds.slice(0, 20)) {
    if (await refresh.listProject(ctx.teamId, projectId, ctx.work)) read = true;
  }
  return read;
}
