/**
 * Slack's 429s for every Web API method, wherever the call was made (Bolt's clients, the DM
 * worker's, the rate limiter's own): every Web API call goes through undici (global fetch),
 * whose diagnostics channel tells each answer's status, so they are counted there rather than
 * in each caller. Counted by the method in the path (`/api/users.info` → users.info).
 */
import dc from 'node:diagnostics_channel';

const HEADERS = 'undici:request:headers';

interface Answered {
  request: { origin?: string | URL; path?: string };
  response: { statusCode?: number };
}

/**
 * Calls `limited(method)` for each 429 from the Web API at `apiUrl`. Stops by itself once
 * `owner` is collected (an app stopped in a test); `stop()` stops at once.
 */
export function watchSlackRateLimits(
  apiUrl: string,
  owner: object,
  limited: (method: string) => void,
): () => void {
  const api = new URL(apiUrl);
  const prefix = api.pathname.endsWith('/') ? api.pathname : `${api.pathname}/`;
  const alive = new WeakRef(owner);
  const onAnswer = (message: unknown) => {
    if (!alive.deref()) return stop();
    const { request, response } = message as Answered;
    if (response?.statusCode !== 429 || String(request?.origin) !== api.origin) return;
    const path = request.path ?? '';
    if (!path.startsWith(prefix)) return;
    limited(path.slice(prefix.length).split(/[?/]/, 1)[0] || 'unknown');
  };
  const stop = () => {
    dc.unsubscribe(HEADERS, onAnswer);
  };
  dc.subscribe(HEADERS, onAnswer);
  return stop;
}
