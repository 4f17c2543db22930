/**
 * Naming a project in a command: `projectArgument` reads the words (or id) a person typed and
 * answers for itself when they name no project, or several — then with a pick list whose
 * buttons finish the command (value JSON {command, projectId, rest}; the router runs
 * `/work <command> <projectId> <rest>`, see app.ts).
 */

import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { WorkContext } from '../context/work-context.js';
import { cut, esc } from '../format/text.js';
import { ACTION } from '../ui/block-ids.js';
import { readCarried } from '../ui/metadata.js';
import { findProject, type ProjectEntry } from './find-project.js';

/** The commands a project pick list can finish. */
export const PICKABLE = ['project', 'project edit', 'project link', 'groups', 'list'] as const;
export type PickableCommand = (typeof PICKABLE)[number];

export interface ProjectPickValue {
  command: PickableCommand;
  projectId: string;
  /** What the command had besides the project (`list`'s open/done/all). */
  rest: string;
}

export function projectPickMessage(input: {
  command: PickableCommand;
  rest: string;
  typed: string;
  projects: readonly ProjectEntry[];
}): { text: string; blocks: KnownBlock[] } {
  const heading = `${input.projects.length} projects match “${esc(cut(input.typed, 80))}”. Which one?`;
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: heading } }];
  input.projects.forEach((p, i) => {
    const value: ProjectPickValue = {
      command: input.command,
      projectId: p.projectId,
      rest: input.rest,
    };
    blocks.push({
      type: 'section',
      block_id: `project_pick_${i}`,
      text: { type: 'mrkdwn', text: `*${esc(cut(p.projectName, 200))}*` },
      accessory: {
        type: 'button',
        action_id: ACTION.projectPick,
        text: { type: 'plain_text', text: 'Choose' },
        value: JSON.stringify(value),
      },
    });
  });
  return { text: heading, blocks };
}

/** A pick button's value back; undefined when it is not one of ours. */
export function readProjectPick(raw: string | undefined): ProjectPickValue | undefined {
  return readCarried(
    raw,
    z.object({ command: z.enum(PICKABLE), projectId: z.string().min(1), rest: z.string() }),
  );
}

/**
 * The project `typed` names, or undefined after telling the person why none (or offering a
 * pick list when several match).
 */
export async function projectArgument(
  ctx: WorkContext,
  typed: string,
  how: { command: PickableCommand; rest?: string },
): Promise<string | undefined> {
  const found = await findProject(ctx, typed);
  if (found.kind === 'one') return found.projectId;
  if (found.kind === 'none') {
    await ctx.reply(found.message);
    return undefined;
  }
  await ctx.reply(
    projectPickMessage({
      command: how.command,
      rest: how.rest ?? '',
      typed,
      projects: found.projects,
    }),
  );
  return undefined;
}
