// What the sandbox asks of JSON it did not write (the app's answers and Web API arguments, the
// page's requests): is it an object, and the object a text holds. Slack takes anything and
// answers with an error name, so these never throw.

/** A JSON object (not null, not an array). */
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object `text` holds, or undefined for bad JSON or any other value. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
