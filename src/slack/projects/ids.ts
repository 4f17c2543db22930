/**
 * Project ids typed by people. The service's ids are 24 hex characters, but another
 * deployment may use other ids (the spec only says "at least 10 characters"), so only what
 * can never be an id is refused here; the service answers the rest (404 → "no project").
 */

/** Why `raw` cannot be a project id, as one sentence; undefined when it may be one. */
export function projectIdProblem(raw: string): string | undefined {
  const id = raw.trim();
  if (!id) return 'Name a project by its id (shown on project cards).';
  if (/^<.*>$/.test(id)) {
    return `Replace \`${clip(id)}\` with a project’s id (the 24-character id shown on project cards).`;
  }
  if (!/^[A-Za-z0-9_-]+$/.test(id)) {
    return `\`${clip(id)}\` is not a project id: ids are letters and digits, like the 24-character ids shown on project cards.`;
  }
  if (id.length < 10) {
    return `\`${clip(id)}\` is too short to be a project id: ids are 24 characters, as shown on project cards.`;
  }
  if (id.length > 100) return 'That is too long to be a project id.';
  return undefined;
}

/** Shows at most 40 characters of what was typed, without breaking the backticks. */
function clip(text: string): string {
  const plain = text.replace(/`/g, '');
  return plain.length > 40 ? `${plain.slice(0, 40)}…` : plain;
}
