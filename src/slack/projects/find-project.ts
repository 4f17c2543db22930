/**
 * A project named by a person, wherever a command takes one (`project`, `project edit`,
 * `project link`, `groups`, `list`, `in:`): its id, or words of its name in any order, each a
 * prefix of a word of the name (`mob app` → "Mobile app"). Candidates are the projects this
 * workspace has used (known_projects) and, where the service offers `GET {base}/project`, the
 * service's own list (read at most once a minute per workspace, and remembered).
 */
import { isWorkApiError } from '../../workapi/client.js';
import type { WorkContext } from '../context/work-context.js';
import { decodeSlackEntities, esc } from '../format/text.js';
import { idProblem } from '../parse/service-id.js';

export interface ProjectEntry {
  projectId: string;
  projectName: string;
}

export type FoundProject =
  | { kind: 'one'; projectId: string; projectName?: string }
  | { kind: 'many'; projects: ProjectEntry[] }
  | { kind: 'none'; message: string };

/** How many candidates a project pick list shows. */
export const PROJECT_PICK_LIMIT = 5;

const LIST_EVERY_MS = 60_000;
/** A name nobody knows asks again at once (a project made a moment ago in the service). */
const FRESH_EVERY_MS = 0;
/** When each team's service list was last read, and whether the service has one. */
const listedAt = new Map<string, { at: number; offered: boolean }>();

/**
 * Every project this workspace can name: the service's list where it has one (read again
 * after a minute), merged with the projects Worklink knows. `offered` says whether the
 * service lists projects at all.
 */
export async function projectDirectory(
  ctx: WorkContext,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<{ projects: ProjectEntry[]; offered: boolean }> {
  const now = Date.now();
  const last = listedAt.get(ctx.teamId);
  let offered = last?.offered ?? true;
  const every = fresh && offered ? FRESH_EVERY_MS : LIST_EVERY_MS;
  if (ctx.connection && (!last || now - last.at >= every)) {
    listedAt.set(ctx.teamId, { at: now, offered });
    try {
      const listed = await ctx.work.listProjects();
      offered = listed !== undefined;
      listedAt.set(ctx.teamId, { at: now, offered });
      for (const p of listed ?? []) {
        if (p.projectName)
          await ctx.store.knownProjects.remember(ctx.teamId, p.projectId, p.projectName);
      }
    } catch (e) {
      // The projects Worklink knows still answer; a rate limit or outage is tried next minute.
      ctx.logger.debug(`Listing the projects failed: ${isWorkApiError(e) ? e.message : String(e)}`);
    }
  }
  const known = await ctx.store.knownProjects.list(ctx.teamId, 1_000);
  const projects = known
    .map((p) => ({ projectId: p.projectId, projectName: p.projectName }))
    .sort((a, b) => a.projectName.localeCompare(b.projectName));
  return { projects, offered };
}

/** Words of a name, lower-case, letters and digits only. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The projects whose names have every typed word as a prefix of one of their words. */
export function matchProjects(projects: readonly ProjectEntry[], typed: string): ProjectEntry[] {
  const wanted = wordsOf(typed);
  if (wanted.length === 0) return [];
  const whole = wanted.join(' ');
  const exact = projects.filter((p) => wordsOf(p.projectName).join(' ') === whole);
  if (exact.length > 0) return exact;
  return projects.filter((p) => {
    const have = wordsOf(p.projectName);
    return wanted.every((w) => have.some((h) => h.startsWith(w)));
  });
}

/** Service ids: 24 hex characters (other deployments: long, no spaces, with digits). */
function looksLikeId(text: string): boolean {
  return /^[0-9a-f]{24}$/i.test(text) || (/^[A-Za-z0-9_-]{20,100}$/.test(text) && /\d/.test(text));
}

/** The project `typed` names (an id, or words of a name). */
export async function findProject(ctx: WorkContext, raw: string): Promise<FoundProject> {
  const typed = decodeSlackEntities(raw)
    .trim()
    .replace(/^["“”']+|["“”']+$/g, '')
    .trim();
  if (!typed) return { kind: 'none', message: 'Name the project: words of its name, or its id.' };
  if (looksLikeId(typed) && !idProblem('project', typed)) {
    const known = await ctx.store.knownProjects.get(ctx.teamId, typed);
    return { kind: 'one', projectId: typed, projectName: known?.projectName };
  }
  let matches = matchProjects((await projectDirectory(ctx)).projects, typed);
  // Nothing known by that name yet: ask the service's list once more (a new project).
  if (matches.length === 0) {
    matches = matchProjects((await projectDirectory(ctx, { fresh: true })).projects, typed);
  }
  if (matches.length === 1) {
    const [one] = matches;
    return { kind: 'one', projectId: one!.projectId, projectName: one!.projectName };
  }
  if (matches.length > 1) return { kind: 'many', projects: matches.slice(0, PROJECT_PICK_LIMIT) };
  if (!idProblem('project', typed) && !/\s/.test(typed) && /\d/.test(typed)) {
    return { kind: 'one', projectId: typed };
  }
  return {
    kind: 'none',
    message: `No project called “${esc(typed)}” is known here. \`/work projects\` lists them; a project's id works too.`,
  };
}
