/** An error as one line for logs and messages: its message, never the whole object. */
export function errMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
