/**
 * What stands between the open internet and Bolt's HTTP receiver (HTTP and OAuth modes).
 *
 * Bolt reads a whole body (up to its limit) before it looks at the signature, and checks the
 * timestamp only for the past. Here, for POST /slack/events:
 *  1. headers first, nothing read yet: a missing signature, a timestamp more than 5 minutes
 *     off either way, or a Content-Length over the limit is refused at once (401/413) and the
 *     connection closed — an unsigned upload never gets its body read (Slack's `ssl_check`,
 *     the one unsigned request, is answered here);
 *  2. the body is read up to the limit (the server's request timeout cuts a slow drip);
 *  3. the signature is checked — the only check: Bolt's receiver is built with
 *     `signatureVerification: false` and gets only requests that passed here — then the
 *     request is claimed in the replay window (replay-window.ts: memory, and the database
 *     only where several instances share it): an identical replay inside the window, or
 *     Slack's retry of an event already taken in (same event_id, sent again with
 *     `x-slack-retry-num`), is answered 200 and not handled again;
 *  4. Bolt gets the buffered request (it uses `rawBody` as read here).
 * The server itself gets header and request timeouts and connection limits (connection-limits.ts).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type {
  IncomingMessage,
  RequestListener,
  Server,
  ServerOptions,
  ServerResponse,
} from 'node:http';
import type { Logger } from '@slack/bolt';
import type { HttpLimits } from '../../config.js';
import { errMessage } from '../../error-message.js';
import { ConnectionShares } from './connection-limits.js';
import type { ReplayWindow } from './replay-window.js';

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  maxConnections: 256,
  perAddressConnections: 32,
  reservedConnections: 64,
  slackBodyBytes: 1024 * 1024,
};

/** Slack's replay window: a signed request older or newer than this is refused. */
export const SIGNATURE_TOLERANCE_S = 300;
/** Slack retries an event three times within minutes; its id is remembered this long. */
const EVENT_ID_KEEP_MS = 3_600_000;
/** An ssl_check body is `ssl_check=1&token=…`: a few bytes. */
const SSL_CHECK_BYTES = 64;

/** For http.createServer: timeouts checked every second, not Node's default 30 s. */
export function serverOptions(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
  };
}

/**
 * The timeouts (again, for a server made elsewhere: Socket Mode's route server) and the
 * connection shares (`shares`, made for the limits; new when not given).
 */
export function applyServerLimits(
  server: Server,
  limits: HttpLimits,
  shares = new ConnectionShares(limits),
): ConnectionShares {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  shares.attach(server);
  return shares;
}

export interface SlackGuardOptions {
  path: string;
  signingSecret: string;
  replays: ReplayWindow;
  /** Told which connections carried a signed request (they are Slack's). */
  shares?: ConnectionShares;
  /** Told, once answered, how long each request handed to Bolt took to its answer (metrics). */
  observeAck?: (body: Buffer, seconds: number) => void;
  limits: HttpLimits;
  logger: Pick<Logger, 'info' | 'debug' | 'error'>;
  now?: () => number;
}

/** Wraps Bolt's request listener with the checks above. */
export function guardSlackRequests(
  next: RequestListener,
  options: SlackGuardOptions,
): RequestListener {
  const { limits, replays, logger } = options;
  const now = options.now ?? (() => Date.now());
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method !== 'POST' || path !== options.path) return void next(req, res);

    const timestamp = one(req.headers['x-slack-request-timestamp']);
    const signature = one(req.headers['x-slack-signature']);
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (declared > limits.slackBodyBytes) {
      return refuse(res, 413, `Request bodies over ${limits.slackBodyBytes} bytes are refused.`);
    }
    if (!signature || !/^\d{1,12}$/.test(timestamp ?? '')) {
      // Slack's ssl_check is the one unsigned request (a few bytes at most).
      if (declared <= SSL_CHECK_BYTES) return void answerSslCheck(req, res);
      return refuse(res, 401, 'Missing Slack signature headers.');
    }
    const skew = Math.abs(now() / 1000 - Number(timestamp));
    if (skew > SIGNATURE_TOLERANCE_S) {
      return refuse(
        res,
        401,
        'The request timestamp is more than 5 minutes from the server clock.',
      );
    }

    // The replay claim is decided before Bolt sees the request: a replay never reaches it.
    readLimited(req, limits.slackBodyBytes)
      .then(async (body) => {
        if (body === 'too_large') {
          return refuse(
            res,
            413,
            `Request bodies over ${limits.slackBodyBytes} bytes are refused.`,
          );
        }
        if (body === undefined) return; // the client went away (or the request timed out)
        if (!validSignature(options.signingSecret, timestamp!, body, signature)) {
          return refuse(res, 401, 'The Slack signature does not match.');
        }
        options.shares?.proven(req.socket);
        const expires = (Number(timestamp) + SIGNATURE_TOLERANCE_S) * 1000 + 1000;
        const digest = createHash('sha256').update(signature).digest('hex');
        if (!(await replays.claim(`sig:${digest}`, expires))) {
          logger.info('Ignored a replayed Slack request (same signature within 5 minutes).');
          return answerEmpty(res);
        }
        const eventId = eventIdOf(req, body);
        if (eventId && !(await replays.claim(`event:${eventId}`, now() + EVENT_ID_KEEP_MS))) {
          const retry = one(req.headers['x-slack-retry-num']);
          logger.info(
            `Ignored Slack's repeat of event ${eventId}${retry ? ` (retry ${retry})` : ''}.`,
          );
          return answerEmpty(res);
        }
        // Bolt reads `rawBody` when it is there instead of the (consumed) stream.
        (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
        const { observeAck } = options;
        if (observeAck) {
          const started = performance.now();
          res.once('finish', () => observeAck(body, (performance.now() - started) / 1000));
        }
        next(req, res);
      })
      .catch((e: unknown) => {
        // Not expected (the replay window does not throw); answered rather than left hanging.
        logger.error(`A Slack request could not be checked: ${errMessage(e)}`);
        refuse(res, 500, 'Try again later.');
      });
  };
}

/** Slack's ssl_check (unsigned, form-encoded, `ssl_check=1`): 200, as Bolt answers it. */
function answerSslCheck(req: IncomingMessage, res: ServerResponse): void {
  void readLimited(req, SSL_CHECK_BYTES).then((body) => {
    if (body === undefined) return;
    const form = String(req.headers['content-type'] ?? '').startsWith(
      'application/x-www-form-urlencoded',
    );
    if (
      body !== 'too_large' &&
      form &&
      new URLSearchParams(body.toString()).get('ssl_check') === '1'
    ) {
      return answerEmpty(res);
    }
    refuse(res, 401, 'Missing Slack signature headers.');
  });
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return;
  // Close rather than drain: whatever the client still sends is not read.
  res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`${message}\n`);
}

function answerEmpty(res: ServerResponse): void {
  res.writeHead(200);
  res.end();
}

/** The body, or 'too_large' past `limit` (reading stops), or undefined when it never came. */
function readLimited(
  req: IncomingMessage,
  limit: number,
): Promise<Buffer | 'too_large' | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Buffer | 'too_large' | undefined) => {
      req.off('data', onData);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        return done('too_large');
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => done(Buffer.concat(chunks, size)));
    req.once('error', () => done(undefined));
    req.once('close', () => {
      if (!req.complete) done(undefined);
    });
  });
}

function validSignature(
  secret: string,
  timestamp: string,
  body: Buffer,
  signature: string,
): boolean {
  const expected = Buffer.from(
    `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** An Events API delivery's event_id (other requests have none). */
function eventIdOf(req: IncomingMessage, body: Buffer): string | undefined {
  if (!String(req.headers['content-type'] ?? '').includes('application/json')) return undefined;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { type?: unknown; event_id?: unknown };
    return parsed.type === 'event_callback' && typeof parsed.event_id === 'string'
      ? parsed.event_id
      : undefined;
  } catch {
    // Not JSON, so not an event delivery to deduplicate: Bolt's own parsing answers it (400).
    return undefined;
  }
}
