/**
 * Where a command's project comes from when none is named: the channel's link. A direct
 * message has no link to make, so there people are told how to choose a project there (the
 * form, `in:<project>`, or the id), not to "link this channel".
 */
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { findProject } from '../projects/find-project.js';

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
  return `This channel has no default project, so ${ways.join(', or ')}, or link one with \`/work project link <project>\`.`;
}

export type ProjectPick = { ok: true; projectId: string } | { ok: false; error: string };

/**
 * The project an `in:` names: words of its name (find-project.ts: the projects Worklink knows
 * and the service's list), else the text as an id for the service to check.
 */
export async function pickProject(ctx: WorkContext, typed: string): Promise<ProjectPick> {
  const found = await findProject(ctx, typed);
  if (found.kind === 'one') return { ok: true, projectId: found.projectId };
  if (found.kind === 'many') {
    const names = found.projects.map((p) => `“${esc(p.projectName)}”`);
    return {
      ok: false,
      error: `“${esc(typed)}” could be ${names.join(', ')}. Give more of the name, or the project id. Nothing was created.`,
    };
  }
  return {
    ok: false,
    error: `No project named “${esc(typed)}” is known here. \`/work projects\` lists them; use \`/work new\` to choose one in a form. Nothing was created.`,
  };
}
