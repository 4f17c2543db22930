/**
 * What a failed Slack Web API call means for an outbox row:
 * - rate_limited: Slack did not take the call; wait `retryAfterMs` (that team only).
 * - permanent:    retrying cannot help (the user is gone, the token revoked…); stop the row.
 * - transient:    5xx, network error, timeout; retry with backoff. `ambiguous` when Slack may
 *                 have acted on the call anyway (no answer, or a 5xx), so a later attempt
 *                 must look for the DM before posting it again.
 */
import { ErrorCode } from '@slack/web-api';

export type SlackFailure =
  | { kind: 'rate_limited'; retryAfterMs: number; reason: string }
  | { kind: 'permanent'; reason: string }
  | { kind: 'transient'; reason: string; ambiguous: boolean };

/** Platform errors that Slack documents as temporary. */
const TRANSIENT_ERRORS = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

const DEFAULT_RETRY_AFTER_MS = 1_000;

export function classifySlackError(err: unknown): SlackFailure {
  const e = err as {
    code?: string;
    data?: { error?: string; response_metadata?: { retryAfter?: number } };
    retryAfter?: number;
    statusCode?: number;
    original?: Error;
    message?: string;
  };
  switch (e?.code) {
    case ErrorCode.RateLimitedError: {
      const seconds = typeof e.retryAfter === 'number' ? e.retryAfter : 1;
      return { kind: 'rate_limited', retryAfterMs: retryMs(seconds), reason: 'rate limited' };
    }
    case ErrorCode.PlatformError: {
      const code = e.data?.error ?? 'unknown_error';
      if (code === 'ratelimited' || code === 'rate_limited') {
        const s = e.data?.response_metadata?.retryAfter;
        return { kind: 'rate_limited', retryAfterMs: retryMs(s ?? 1), reason: code };
      }
      if (TRANSIENT_ERRORS.has(code)) return { kind: 'transient', reason: code, ambiguous: true };
      // Slack answers 200 + ok:false only when it did not act; anything else we do not know
      // is treated as final rather than retried for hours.
      return { kind: 'permanent', reason: code };
    }
    case ErrorCode.HTTPError: {
      const status = e.statusCode ?? 0;
      if (status >= 500 || status === 408) {
        return { kind: 'transient', reason: `HTTP ${status}`, ambiguous: true };
      }
      return { kind: 'permanent', reason: `HTTP ${status}` };
    }
    case ErrorCode.RequestError: {
      const original = e.original;
      const timedOut =
        original?.name === 'TimeoutError' || original?.name === 'AbortError' ? 'timed out' : '';
      return {
        kind: 'transient',
        reason: timedOut || `network error (${original?.message ?? e.message ?? 'unknown'})`,
        ambiguous: true,
      };
    }
    default: {
      const message = e?.message ?? String(err);
      // WebClient's own error for a 429 without a usable Retry-After header.
      if (/rate limit|retry header/i.test(message)) {
        return {
          kind: 'rate_limited',
          retryAfterMs: DEFAULT_RETRY_AFTER_MS,
          reason: 'rate limited',
        };
      }
      return { kind: 'transient', reason: message, ambiguous: true };
    }
  }
}

/** Retry-After is whole seconds; 0 still gets a short pause so we do not spin. */
function retryMs(seconds: number): number {
  return Math.max(100, Math.min(seconds, 3_600) * 1000);
}
