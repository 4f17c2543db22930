/** Thrown for start-up problems a person must fix; `message` is one sentence. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}
