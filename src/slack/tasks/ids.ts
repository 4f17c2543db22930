/**
 * Task ids typed by people. The spec only promises "at least 10 characters", so only what
 * can never be an id is refused here; the service answers the rest (404 → "no task").
 */

const EXAMPLE = '65a1f0c2e4b0a1b2c3d4e5f6';

/** Why `raw` cannot be a task id, as one sentence; undefined when it may be one. */
export function taskIdProblem(
  raw: string | undefined,
  usage = 'task <taskId>',
): string | undefined {
  const id = (raw ?? '').trim();
  const example = `\`/work ${usage.replace('<taskId>', EXAMPLE)}\``;
  if (!id) return `Name the task by its id, like ${example} (ids are shown on task cards).`;
  if (/^<.*>$/.test(id)) {
    return `Replace \`${clip(id)}\` with a task’s id, like ${example} (ids are shown on task cards).`;
  }
  if (!/^[A-Za-z0-9_-]+$/.test(id)) {
    return `\`${clip(id)}\` is not a task id: ids are letters and digits, like the 24-character ids shown on task cards.`;
  }
  if (id.length < 10) {
    return `\`${clip(id)}\` is too short to be a task id: ids are 24 characters, as shown on task cards.`;
  }
  if (id.length > 100) return 'That is too long to be a task id.';
  return undefined;
}

/** At most 40 characters of what was typed, without breaking the backticks. */
function clip(text: string): string {
  const plain = text.replace(/`/g, '');
  return plain.length > 40 ? `${plain.slice(0, 40)}…` : plain;
}
