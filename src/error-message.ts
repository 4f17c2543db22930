import { scrub } from './secrets.js';

/**
 * An error as one line for logs and messages: its message, never the whole object, and never
 * a secret it names (src/secrets.ts).
 */
export function errMessage(e: unknown): string {
  return scrub(e instanceof Error ? e.message : String(e));
}

/** A Node system error's code ("EADDRINUSE", "EACCES", …), if `e` carries one. */
export function errCode(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}
