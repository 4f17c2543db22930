/**
 * How a failure is answered: `{error: "<field>: <problem>"}` with its status. Fastify's error
 * handler (server.ts) and fast-create.ts answer alike through `errorAnswer`.
 */
import { isServiceError } from './errors.js';
import type { Logger } from './events.js';

/** Fastify's own errors for client mistakes, in the service's words. */
const FRAMEWORK_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'body: must be at most 1 MiB' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 400,
    message: 'content-type: must be application/json',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'body: is empty; send a JSON object' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'body: is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: 'content-length: does not match the body',
  },
};

export interface ErrorAnswer {
  status: number;
  error: string;
}

/** A failure's answer; one the service does not know is a bug: logged, and a 500. */
export function errorAnswer(
  error: unknown,
  logger: Logger | undefined,
  method = '',
  url = '',
): ErrorAnswer {
  const answer = knownErrorAnswer(error);
  if (answer) return answer;
  logger?.error(`${method} ${url.split('?')[0]} failed: ${errorText(error)}`);
  return { status: 500, error: 'service: internal error' };
}

/** How a known failure is answered; undefined: not one (a bug). */
function knownErrorAnswer(error: unknown): ErrorAnswer | undefined {
  if (isServiceError(error)) return { status: error.status, error: error.message };
  if (!(error instanceof Error)) return undefined;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  const known = code === undefined ? undefined : FRAMEWORK_ERRORS[code];
  if (known) return { status: known.status, error: known.message };
  if (error instanceof SyntaxError) return { status: 400, error: 'body: is not valid JSON' };
  const status =
    'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) return { status, error: `request: ${error.message}` };
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? String(error)) : String(error);
}
