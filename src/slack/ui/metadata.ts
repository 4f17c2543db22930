/**
 * Reading back what a view or button carried (private_metadata, a button's value). It comes
 * back from Slack, so it is checked field by field: junk never throws, it just reads as empty.
 */

/** The JSON object in `raw`; {} when it is not JSON or not an object. */
export function parseObject(raw: string | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(raw ?? '') as unknown;
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A non-empty string, else undefined. */
export function str(x: unknown): string | undefined {
  return typeof x === 'string' && x ? x : undefined;
}
