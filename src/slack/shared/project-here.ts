/**
 * Where a command's project comes from when none is named: the channel's link. A direct
 * message has no link to make, so there people are told how to choose a project there (the
 * form, `in:<project>`, or the id), not to "link this channel".
 */
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { idProblem } from '../parse/service-id.js';

/** Slack's DM ids start with D (group DMs with G are channels for this purpose). */
export function inDirectMessage(ctx: Pick<WorkContext, 'channelId'>): boolean {
  return !ctx.channelId || ctx.channelId.startsWith('D');
}

/**
 * The sentence for "no project here". `name` is how the command takes a project
 * (`/work list open <projectId>`); `creates` says the command makes a task, so the form and
 * `in:` are the ways to choose one.
 */
export function noProjectHere(
  ctx: Pick<WorkContext, 'channelId'>,
  how: { name: string; creates?: boolean },
): string {
  const ways = how.creates
    ? [
        'use `/work new` to choose a project in a form',
        'name it with `in:`, like `/work add Fix the login page in:"Website relaunch"`',
      ]
    : [`name one: \`${how.name}\``];
  if (inDirectMessage(ctx)) {
    return `A direct message has no project of its own, so ${ways.join(', or ')}.`;
  }
  return `This channel has no default project, so ${ways.join(', or ')}, or link one with \`/work project link <projectId>\`.`;
}

export type ProjectPick = { ok: true; projectId: string } | { ok: false; error: string };

/**
 * The project an `in:` names: a project this workspace has used (by name, exactly, else the
 * one whose name starts with or contains it), else the text as an id for the service to check.
 */
export async function pickProject(ctx: WorkContext, typed: string): Promise<ProjectPick> {
  const wanted = typed.trim().toLowerCase();
  const known = await ctx.store.knownProjects.list(ctx.teamId, 500);
  const byName = (test: (name: string) => boolean) =>
    known.filter((p) => test(p.projectName.trim().toLowerCase()));
  for (const found of [
    byName((n) => n === wanted),
    byName((n) => n.startsWith(wanted)),
    byName((n) => n.includes(wanted)),
  ]) {
    if (found.length === 1) return { ok: true, projectId: found[0]!.projectId };
    if (found.length > 1) {
      const names = found.slice(0, 5).map((p) => `“${esc(p.projectName)}”`);
      return {
        ok: false,
        error: `“${esc(typed)}” could be ${names.join(', ')}. Give more of the name, or the project id. Nothing was created.`,
      };
    }
  }
  if (!idProblem('project', typed)) return { ok: true, projectId: typed };
  return {
    ok: false,
    error: `No project named “${esc(typed)}” is known here. Use the project id (shown on project cards), or \`/work new\` to choose one in a form. Nothing was created.`,
  };
}
