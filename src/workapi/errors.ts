/**
 * Failures of WorkClient calls, and how a service's error answer becomes one.
 *
 * The hosted service (and the proxies in front of it) answer errors as `{error}`,
 * `{message}`, `{error: {message}}`, `{errors: [{message}]}` or an HTML page. The message a
 * person may see is the service's own sentence, never the page: an HTML answer is named by
 * its `<title>`, or by "HTTP 502".
 */
import { errors as undiciErrors } from 'undici';
import { scrub } from '../secrets.js';
import type { ClientOperationName } from './operations.js';
import { isRecord } from './records.js';
import { parseStorableJson, storable } from './storable.js';

export type WorkErrorKind =
  | 'auth'
  | 'not_found'
  | 'invalid'
  | 'timeout'
  | 'network'
  | 'server'
  | 'rate_limited'
  | 'too_large';

/** Every failure of a WorkClient call. `status` is 0 when no HTTP answer was had. */
export class WorkApiError extends Error {
  override readonly name = 'WorkApiError';
  /** For 429: how long the service asked to wait. */
  retryAfterMs?: number;
  /** Set when the key refused (401/403) was a person's own, not the workspace's. */
  personalKey?: boolean;
  constructor(
    readonly operation: ClientOperationName,
    readonly status: number,
    readonly kind: WorkErrorKind,
    message: string,
    /** True when the request was never sent (so nothing changed on the service). */
    readonly notSent = false,
    /** False when the answer was not JSON (an HTML page from a proxy, plain text). */
    readonly fromJson = true,
  ) {
    // The service's words may echo the request's key: never kept, shown or logged.
    super(scrub(message));
  }
}

export function isWorkApiError(e: unknown): e is WorkApiError {
  return e instanceof WorkApiError;
}

/**
 * The JSON value of an answer's text, or `undefined` when it is not JSON. Every string in it
 * is storable (storable.ts): all service JSON is read here.
 */
export function jsonOf(text: string): { value: unknown } | undefined {
  try {
    return { value: parseStorableJson(text) };
  } catch {
    // "Not JSON" is the answer itself: each caller says what a non-JSON body means there.
    return undefined;
  }
}

/** The service's sentence in a JSON error body, if it has one. */
function jsonMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (!isRecord(body)) return undefined;
  const b = body;
  const nested = (v: unknown) =>
    typeof v === 'string'
      ? v
      : isRecord(v) && typeof v.message === 'string'
        ? v.message
        : undefined;
  return (
    nested(b.error) ??
    nested(b.message) ??
    (Array.isArray(b.errors) ? nested(b.errors[0]) : undefined) ??
    nested(b.msg)
  );
}

/** An HTML page's `<title>`, decoded and trimmed. */
function htmlTitle(text: string): string | undefined {
  const m = /<title[^>]*>([^<]*)<\/title>/i.exec(text);
  const title = m?.[1]
    ?.replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return title || undefined;
}

const looksLikeHtml = (text: string) => /^\s*</.test(text);

/** The error for a non-2xx answer. */
export function errorFromAnswer(
  name: ClientOperationName,
  status: number,
  text: string,
): WorkApiError {
  const json = jsonOf(text);
  let message: string | undefined;
  if (json) message = jsonMessage(json.value);
  else if (looksLikeHtml(text)) message = htmlTitle(text);
  else message = text.trim().split('\n')[0]?.slice(0, 300);
  message = storable(message?.trim() ?? '') || `HTTP ${status}`;
  return new WorkApiError(
    name,
    status,
    errorKind(status, Boolean(json)),
    message,
    false,
    Boolean(json),
  );
}

function errorKind(status: number, json: boolean): WorkErrorKind {
  if (status === 401) return 'auth';
  // A bad key is answered by the service in JSON; a page saying "Forbidden" comes from a
  // proxy or firewall in front of it: a server problem, not a reason to replace the key.
  if (status === 403) return json ? 'auth' : 'server';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  // Only the service's own JSON names a field that was wrong; anything else is its problem.
  return status >= 500 || !json ? 'server' : 'invalid';
}

export function transportError(
  name: ClientOperationName,
  e: unknown,
  timeoutMs: number,
): WorkApiError {
  const err = isRecord(e) ? e : {};
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const code = text(err.code) ?? (isRecord(err.cause) ? text(err.cause.code) : undefined);
  if (
    err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    e instanceof undiciErrors.HeadersTimeoutError ||
    e instanceof undiciErrors.BodyTimeoutError
  ) {
    return new WorkApiError(
      name,
      0,
      'timeout',
      `The service did not answer within ${timeoutMs / 1000} s.`,
    );
  }
  // Refused or unresolvable connections never carried the request.
  const notSent =
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    e instanceof undiciErrors.ConnectTimeoutError;
  return new WorkApiError(
    name,
    0,
    notSent && code === 'UND_ERR_CONNECT_TIMEOUT' ? 'timeout' : 'network',
    `The service could not be reached (${code ?? 'network error'}).`,
    notSent,
  );
}
