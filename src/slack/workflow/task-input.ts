/**
 * The task a step names: `#12 in <project>`, its id, a link to it, or words of its name — read
 * by the same look-up as `/work task` (tasks/find-task.ts). A step has no channel, so `#12`
 * needs its project, and words must name exactly one task; the sentences say so in words a
 * workflow's author can act on (no slash commands).
 */
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { findTask, PICK_LIMIT, parseTaskRef, type TaskRef } from '../tasks/find-task.js';

export type TaskInput = { ok: true; taskId: string } | { ok: false; error: string };

const HOW = 'Name the task as “#12 in <project name>”, by its id, or by its link';

/**
 * A reference from a link: one of the service's task links ("Open in …", links/addresses.ts),
 * else the path's (or query's) last part that reads as a task id.
 */
export function refFromLink(ctx: WorkContext, text: string): TaskRef | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  const known = ctx.deps.links.parse(ctx.teamId, text);
  if (known) return known.kind === 'task' ? { kind: 'id', id: known.id } : undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const parts = [...url.searchParams.values(), ...url.pathname.split('/').reverse()];
  for (const part of parts) {
    const ref = parseTaskRef(decodeURIComponent(part));
    if (ref?.kind === 'id') return ref;
  }
  return undefined;
}

/** The one task `raw` names, or why it names none. */
export async function taskFromInput(ctx: WorkContext, raw: string): Promise<TaskInput> {
  const text = raw.trim();
  if (!text) return { ok: false, error: `No task was given. ${HOW}.` };
  if (text.length > 500)
    return { ok: false, error: `The task is longer than 500 characters. ${HOW}.` };
  const link = /^https?:\/\//i.test(text);
  const ref = link ? refFromLink(ctx, text) : parseTaskRef(text);
  if (!ref) {
    return { ok: false, error: `That link does not name a task id. ${HOW}.` };
  }
  if (ref.kind === 'number' && !ref.projectWords) {
    return {
      ok: false,
      error: `“#${ref.number}” does not say which project: a workflow has no channel to take it from. Write “#${ref.number} in <project name>”.`,
    };
  }
  const found = await findTask(ctx, ref);
  if (found.kind === 'one') return { ok: true, taskId: found.taskId };
  if (found.kind === 'many') {
    const names = found.tasks
      .slice(0, PICK_LIMIT)
      .map((t) => `“${esc(t.name)}”${t.number ? ` (#${t.number})` : ''}`)
      .join(', ');
    return {
      ok: false,
      error: `“${esc(text)}” matches several tasks: ${names}. ${HOW}.`,
    };
  }
  return { ok: false, error: withoutCommands(found.message) };
}

/** The look-up's sentence, without the parts that suggest a slash command. */
export function withoutCommands(message: string): string {
  const kept = message
    .split(/(?<=[.!?])\s+/)
    .filter((s) => !s.includes('/work'))
    .join(' ');
  return kept || message;
}
