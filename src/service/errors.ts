/**
 * Errors the domain throws on purpose. The HTTP layer turns them into `{error}` with their
 * status; anything else is a bug and becomes a 500.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** 400 with docs/design.md's "<field>: <problem>" sentence. */
export function badRequest(field: string, problem: string): ServiceError {
  return new ServiceError(400, `${field}: ${problem}`);
}

/** 404: unknown id, or an id of another workspace (the two answer alike). */
export function notFound(what: 'task' | 'project', id: string): ServiceError {
  return new ServiceError(404, `${what === 'task' ? 'taskId' : 'projectId'}: no ${what} ${id}`);
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}
