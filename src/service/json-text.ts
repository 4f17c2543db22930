/**
 * A response body that is already JSON (built by SQLite on the hot paths, or cached as
 * bytes), sent as is instead of being parsed into objects and serialised again.
 */
export class JsonText {
  constructor(
    readonly text: string | Buffer,
    /** Extra response headers (list tasks' X-Total-Count when paged). */
    readonly headers?: Record<string, string>,
  ) {}
}
