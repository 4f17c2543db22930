/**
 * The id a subcommand takes as its first word (`/work task <taskId>`, `/work groups
 * [projectId]`): checked, or — after answering why it cannot be used — undefined. One guard
 * for every command that names a task or a project, so they all answer alike.
 */
import type { WorkContext } from '../context/work-context.js';
import { type IdKind, idProblem } from '../parse/service-id.js';
import type { SubcommandArgs } from './router.js';

export interface IdArgument {
  kind: IdKind;
  /** The command as help shows it (`project edit <projectId>`), for the answers. */
  usage: string;
  /** Nothing may follow the id. */
  only?: boolean;
  /** The id to use when none is typed (the channel's project), if any. */
  otherwise?: () => Promise<string | undefined>;
  /** Said when no id is typed and `otherwise` has none; default: how to name one. */
  missing?: string;
}

export async function idArgument(
  ctx: WorkContext,
  args: SubcommandArgs,
  spec: IdArgument,
): Promise<string | undefined> {
  if (spec.only && args.words.length > 1) {
    await ctx.reply(`\`/work ${spec.usage}\` takes one ${spec.kind} id; nothing was done.`);
    return undefined;
  }
  const typed = args.words[0];
  if (!typed) {
    const fallback = await spec.otherwise?.();
    if (fallback) return fallback;
    if (spec.missing) {
      await ctx.reply(spec.missing);
      return undefined;
    }
  }
  const problem = idProblem(spec.kind, typed, spec.usage);
  if (problem) {
    await ctx.reply(problem);
    return undefined;
  }
  return typed;
}
