/**
 * Task and project ids typed by people. The service's ids are 24 hex characters, but another
 * deployment may use other ids (the spec, docs/work-management-api.md, only says "at least 10
 * characters"), so only what can never be an id is refused here; the service answers the rest (404 → "no such task").
 */
import { decodeSlackEntities, esc } from '../format/text.js';

const EXAMPLE = '65a1f0c2e4b0a1b2c3d4e5f6';

export type IdKind = 'task' | 'project';

/**
 * Why `raw` cannot be a task or project id, as one sentence; undefined when it may be one.
 * `usage` is the command it was typed in (`edit <taskId>`), used for the example.
 */
export function idProblem(
  kind: IdKind,
  raw: string | undefined,
  usage = `${kind} <${kind}Id>`,
): string | undefined {
  // Slack sends a typed `<taskId>` as `&lt;taskId&gt;`: judge what the person typed.
  const id = decodeSlackEntities(raw ?? '').trim();
  const cards = `${kind} cards`;
  if (!id) {
    const example = `\`/work ${usage.replace(`<${kind}Id>`, EXAMPLE)}\``;
    return `Name the ${kind} by its id, like ${example} (ids are shown on ${cards}).`;
  }
  if (/^<.*>$/.test(id)) {
    return `Replace \`${clip(id)}\` with a ${kind}’s id (the 24-character id shown on ${cards}).`;
  }
  if (!/^[A-Za-z0-9_-]+$/.test(id)) {
    return `\`${clip(id)}\` is not a ${kind} id: ids are letters and digits, like the 24-character ids shown on ${cards}.`;
  }
  if (id.length < 10) {
    return `\`${clip(id)}\` is too short to be a ${kind} id: ids are 24 characters, as shown on ${cards}.`;
  }
  if (id.length > 100) return `That is too long to be a ${kind} id.`;
  return undefined;
}

export const taskIdProblem = (raw: string | undefined, usage?: string) =>
  idProblem('task', raw, usage);
export const projectIdProblem = (raw: string | undefined, usage?: string) =>
  idProblem('project', raw, usage);

/** At most 40 characters of what was typed, escaped, without breaking the backticks. */
function clip(text: string): string {
  const plain = text.replace(/`/g, '');
  return esc(plain.length > 40 ? `${plain.slice(0, 40)}…` : plain);
}
