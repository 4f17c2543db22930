/**
 * The `fetch` Worklink's Web API clients use (WebClient's `fetch` option): undici's `request`
 * on a pool of kept-alive connections, instead of the global fetch. Global fetch builds a
 * WHATWG Request, Headers and a web stream per call: in a burst of `/work add` (each posts its
 * card) it was most of a chat.postMessage's CPU in Worklink's process — as for response_url
 * replies (response-url.ts).
 *
 * What WebClient reads of an answer: status, headers (retry-after, content-type, scopes),
 * the body as text, JSON or bytes. A multipart body (file uploads) goes through the global
 * fetch, as before. A redirect is not followed (WebClient asks for `redirect: 'error'`): it
 * is an answer other than 200, which WebClient reports as an HTTP error.
 */
import { STATUS_CODES } from 'node:http';
import type { FetchFunction } from '@slack/web-api';
import { Agent } from 'undici';

type FetchResponse = Awaited<ReturnType<FetchFunction>>;

const pool = new Agent({
  connections: 64,
  keepAliveTimeout: 10_000,
  connect: { timeout: 10_000 },
});

export const slackFetch: FetchFunction = async (url, init = {}) => {
  const { body } = init;
  if (body !== undefined && typeof body !== 'string') return fetch(url, init);
  const address = typeof url === 'string' ? new URL(url) : url;
  const res = await pool.request({
    origin: address.origin,
    path: `${address.pathname}${address.search}`,
    method: init.method === 'GET' ? 'GET' : 'POST',
    headers: init.headers,
    body,
    signal: init.signal,
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const answer: FetchResponse = {
    ok: res.statusCode >= 200 && res.statusCode < 300,
    status: res.statusCode,
    statusText: STATUS_CODES[res.statusCode] ?? '',
    url: String(url),
    headers: {
      get: (name) => headers.get(name.toLowerCase()) ?? null,
      entries: () => headers.entries(),
    },
    arrayBuffer: async () =>
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    json: async () => JSON.parse(bytes.toString('utf8')),
    text: async () => bytes.toString('utf8'),
  };
  return answer;
};
