/**
 * Create task answered straight from node:http, past Fastify (issue 25: the hot write).
 * Through Fastify a create cost ~15 µs more CPU than the same work under a bare node:http
 * handler: request and reply objects, routing, the onRequest hook, the content-type parser's
 * chain of callbacks, the reply's send pipeline. None of it changes what a well-formed create
 * does, so a request that needs none of it — `POST /v1.0/task` with a known key, a JSON
 * content type and a length within the limit, whose body parses as JSON and passes the
 * contract's schema — is answered here: the same handler, the same group commit, the same
 * bytes (test/service/fast-create.test.ts compares the two paths).
 *
 * Every other request goes to Fastify untouched, before its body is read. One whose body
 * was read and then failed a check goes to Fastify with that body (`handOver`), so Fastify
 * reads the same bytes and answers the mistake in its own words, as it always has (empty
 * body, invalid JSON, prototype poisoning, a schema problem, the connection closed after a
 * parser error). What the handler throws is answered as the error handler answers it
 * (error-answers.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BASE_PREFIX, type CreateTaskBody, operations } from '../workapi/contract.js';
import { errorAnswer } from './error-answers.js';
import type { Logger } from './events.js';
import type { GroupCommit } from './group-commit.js';
import { createTaskAnswer, type HandlerContext } from './handlers.js';
import type { Caller } from './workspaces.js';

export const FAST_CREATE_PATH = `${BASE_PREFIX}${operations.createTask.path}`;

/** The content types Fastify's JSON parser takes that are decoded here alike (as UTF-8). */
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

export interface FastCreateOptions {
  commits: GroupCommit;
  bodyLimit: number;
  /** The caller of a key, as the auth hook finds it (undefined: not a known key). */
  lookup(key: string): Caller | undefined;
  context(caller: Caller): HandlerContext;
  /** True once the server is closing: Fastify then answers 503 (so it gets the request). */
  closing(): boolean;
  /** Hands the request to Fastify; `body`: the bytes already read of it. */
  handOver(req: IncomingMessage, res: ServerResponse, body?: Buffer): void;
  logger?: Logger;
}

/**
 * A node:http server as Fastify makes one (its getServerInstance, with the timeouts given to
 * it), whose requests reach fastCreate first.
 */
export function fastCreateServer(
  timeouts: { connectionTimeout: number; keepAliveTimeout: number; requestTimeout: number },
  options: FastCreateOptions,
): Server {
  const server = createServer(fastCreate(options));
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.requestTimeout = timeouts.requestTimeout;
  server.setTimeout(timeouts.connectionTimeout);
  return server;
}

/** Answers JSON text as Fastify's reply does: the type, then the length. */
function sendJson(res: ServerResponse, status: number, text: string | Buffer): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A request listener that answers well-formed creates and hands the rest to Fastify. */
function fastCreate(options: FastCreateOptions) {
  const { commits, bodyLimit, lookup, context, closing, handOver, logger } = options;
  const schema = operations.createTask.body;

  const run = (req: IncomingMessage, res: ServerResponse, caller: Caller, body: Buffer) => {
    const text = body.toString('utf8');
    // Fastify's parser refuses these keys (prototype poisoning) and strips a BOM: it decides.
    if (text.includes('__proto__') || text.includes('constructor')) {
      handOver(req, res, body);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      handOver(req, res, body);
      return;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      handOver(req, res, body);
      return;
    }
    const input: CreateTaskBody = parsed.data;
    commits.write(
      () => createTaskAnswer(context(caller), input),
      (answer) => sendJson(res, operations.createTask.status, answer.text),
      (error) => {
        // As Fastify's error handler answers it (server.ts).
        const { status, ...body } = errorAnswer(error, logger, req.method, req.url);
        sendJson(res, status, JSON.stringify(body));
      },
    );
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    const headers = req.headers;
    const key = headers.apikey;
    const length = headers['content-length'];
    const caller =
      req.method === 'POST' &&
      req.url === FAST_CREATE_PATH &&
      typeof key === 'string' &&
      key !== '' &&
      headers['transfer-encoding'] === undefined &&
      length !== undefined &&
      Number(length) <= bodyLimit &&
      JSON_TYPES.has(headers['content-type'] ?? '') &&
      !closing()
        ? lookup(key)
        : undefined;
    if (!caller) {
      handOver(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      run(req, res, caller, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    // The client went away mid-body (node:http closes the socket): there is no one to answer.
    req.on('error', () => {});
  };
}
