// Signed delivery to the app, byte for byte the way Slack sends requests: the v0 signature
// (HMAC-SHA256 of "v0:<timestamp>:<raw body>"), X-Slack-Request-Timestamp, and the three body
// kinds — form-encoded slash commands, form-encoded `payload=` for interactivity, JSON events.

import { createHmac } from 'node:crypto';

export function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  const digest = createHmac('sha256', signingSecret)
    .update(`v0:${timestamp}:${body}`)
    .digest('hex');
  return `v0=${digest}`;
}

export type BodyKind = 'command' | 'interactivity' | 'event';

export function encodeBody(
  kind: BodyKind,
  data: Record<string, unknown>,
): {
  body: string;
  contentType: string;
} {
  if (kind === 'event') return { body: JSON.stringify(data), contentType: 'application/json' };
  if (kind === 'interactivity') {
    return {
      body: new URLSearchParams({ payload: JSON.stringify(data) }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    };
  }
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) if (v !== undefined) fields[k] = String(v);
  return {
    body: new URLSearchParams(fields).toString(),
    contentType: 'application/x-www-form-urlencoded',
  };
}

export interface Delivery {
  /** HTTP status, or 0 when no answer came (timeout or connection failure). */
  status: number;
  body: string;
  contentType: string;
  ms: number;
  failure?: 'timeout' | 'network';
  detail?: string;
}

export interface DeliverOptions {
  url: string;
  signingSecret: string;
  kind: BodyKind;
  data: Record<string, unknown>;
  /** Slack waits 3 seconds for an answer. */
  timeoutMs?: number;
  /** Seconds since the epoch; tests use it to send stale requests. */
  timestamp?: number;
}

export async function deliverSigned(opts: DeliverOptions): Promise<Delivery> {
  const { body, contentType } = encodeBody(opts.kind, opts.data);
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const started = performance.now();
  try {
    const res = await fetch(opts.url, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(opts.signingSecret, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 3000),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text,
      contentType: res.headers.get('content-type') ?? '',
      ms: performance.now() - started,
    };
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    const timeout = name === 'TimeoutError' || name === 'AbortError';
    return {
      status: 0,
      body: '',
      contentType: '',
      ms: performance.now() - started,
      failure: timeout ? 'timeout' : 'network',
      detail: timeout ? 'no answer within the time limit' : networkDetail(e),
    };
  }
}

/** Why fetch failed: undici puts the system error (ECONNREFUSED, …) in `cause`. */
function networkDetail(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  return String(e.cause ?? e.message);
}
