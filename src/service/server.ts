import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { z } from 'zod';
import {
  ALT_PREFIX,
  BASE_PREFIX,
  describeIssue,
  extraOperations,
  isExtraOperationName,
  isOperationName,
  type Operation,
  type OperationName,
  operations,
  pathId,
} from '../workapi/contract.js';
import { PAGES_PREFIX } from '../workapi/page-links.js';
import type { Db } from './db.js';
import { isServiceError, ServiceError } from './errors.js';
import type { Logger } from './events.js';
import type { GroupCommit } from './group-commit.js';
import { extensionHandlers, type Handlers, handlers, type Input } from './handlers.js';
import { JsonText } from './json-text.js';
import { registerPages } from './pages.js';
import { type Caller, findCaller } from './workspaces.js';

const BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  db: Db;
  /** The shared transaction writes run in; it wakes the delivery worker after events. */
  commits: GroupCommit;
  logger?: Logger;
  /** Known keys → caller (the auth cache); given, so a revoked key can be dropped from it. */
  knownKeys?: Map<string, Caller>;
}

/**
 * The HTTP layer: routes come from the contract's operation table; each route checks the key,
 * validates path ids, query and body with the contract's schemas, and hands over to the
 * domain. Every failure answers `{error: "<field>: <problem>"}`; client garbage never
 * produces a 5xx.
 */
export function buildServer({
  db,
  commits,
  logger,
  knownKeys = new Map<string, Caller>(),
}: ServerOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: (error, _request, anyReply) => {
      const reply = anyReply as FastifyReply;
      // An overlong path id cannot name anything; other URL problems are bad input.
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return reply.code(404).send({ error: 'id: no resource has an id this long' });
      }
      return reply.code(400).send({ error: 'url: is not a valid address' });
    },
  });
  // JSON only: a text/plain body must be refused, not handed to the schemas as a string.
  app.removeContentTypeParser('text/plain');
  // A JSON content type with an empty body is "no body" on a request that takes none (one
  // public client sends the header on every request, DELETE included); a write that needs a
  // body still hears "body: is empty".
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '' && (request.method === 'DELETE' || request.method === 'GET')) {
      done(null, undefined);
      return;
    }
    void json(request, text, done);
  });

  // Who each request is, as the auth hook found it.
  const callers = new WeakMap<FastifyRequest, Caller>();
  const callerOf = (request: FastifyRequest): Caller => {
    const caller = callers.get(request);
    // Only the pages skip the auth hook, and they are not operations: a bug, so a 500.
    if (!caller) throw new Error(`no caller for ${request.method} ${request.url}`);
    return caller;
  };
  // Known keys → caller, so the hot path skips hashing and a query. Revoking a key
  // (ServiceHandle.revokeKey) drops it here too; a workspace is never renamed; only hits are
  // kept (unknown keys cannot grow it), and it is bounded anyway.
  const lookup = (key: string): Caller | undefined => {
    const hit = knownKeys.get(key);
    if (hit) return hit;
    const caller = findCaller(db, key);
    if (caller) {
      if (knownKeys.size >= 10_000) knownKeys.clear();
      knownKeys.set(key, caller);
    }
    return caller;
  };

  // Auth runs first (before the body is read), so a request without a valid key learns
  // nothing else about the service.
  app.addHook('onRequest', (request, reply, done) => {
    // The read-only pages check their own signed addresses (pages.ts), not a header.
    if (request.url.startsWith(`${PAGES_PREFIX}/`)) {
      done();
      return;
    }
    const key = request.headers.apikey;
    if (typeof key !== 'string' || key === '') {
      reply.code(401).send({ error: 'apiKey: the apiKey header is missing' });
      return;
    }
    const caller = lookup(key);
    if (!caller) {
      reply.code(401).send({ error: 'apiKey: is not a valid key' });
      return;
    }
    callers.set(request, caller);
    done();
  });

  const eventRecorded = () => commits.eventRecorded();
  const ctx = (request: FastifyRequest) => ({
    db,
    caller: callerOf(request),
    eventRecorded,
  });
  const route = <N extends OperationName>(prefix: string, name: N) => {
    const op: Operation = operations[name];
    const params = z.strictObject(Object.fromEntries(op.params.map((p) => [p, pathId])));
    const handler: Handlers[N] = handlers[name];
    app.route({
      method: op.method,
      url: prefix + op.path,
      handler: (request: FastifyRequest, reply: FastifyReply) => {
        // Checked against operation N's own schemas here: the one place they become Input<N>.
        const input = {
          params: checkParams(op, params, request.params),
          query: op.query ? parse(op.query, request.query) : undefined,
          body: op.body ? parse(op.body, request.body) : undefined,
        } as Input<N>;
        answer(commits, reply, op, () => handler(ctx(request), input));
      },
    });
  };
  for (const name of Object.keys(operations).filter(isOperationName)) {
    const op: Operation = operations[name];
    route(op.address === 'base' ? BASE_PREFIX : ALT_PREFIX, name);
  }
  // Clients in the wild send update task to the base address too.
  route(BASE_PREFIX, 'updateTask');
  // The extensions (docs/service-extensions.md): path ids only; a query or body is ignored.
  for (const name of Object.keys(extraOperations).filter(isExtraOperationName)) {
    const op: Operation = extraOperations[name];
    const params = z.strictObject(Object.fromEntries(op.params.map((p) => [p, pathId])));
    app.route({
      method: op.method,
      url: BASE_PREFIX + op.path,
      handler: (request: FastifyRequest, reply: FastifyReply) => {
        const input = { params: checkParams(op, params, request.params) };
        answer(commits, reply, op, () => extensionHandlers[name](ctx(request), input));
      },
    });
  }

  registerPages(app, db, commits);

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send({ error: `${request.method} ${request.url.split('?')[0]}: no such operation` });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isServiceError(error)) return reply.code(error.status).send({ error: error.message });
    const known = FRAMEWORK_ERRORS[error.code];
    if (known) return reply.code(known.status).send({ error: known.message });
    if (error instanceof SyntaxError)
      return reply.code(400).send({ error: 'body: is not valid JSON' });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: `request: ${error.message}` });
    }
    logger?.error(`${request.method} ${request.url.split('?')[0]} failed: ${error.stack ?? error}`);
    return reply.code(500).send({ error: 'service: internal error' });
  });

  return app;
}

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

/**
 * Runs an operation's handler and sends its result. A write runs at the end of the turn in
 * the shared transaction and answers after its commit; a read runs once no write is queued
 * (group-commit.ts). A failure goes to the error handler.
 */
function answer(commits: GroupCommit, reply: FastifyReply, op: Operation, run: () => unknown) {
  const fail = (e: unknown) => reply.send(e);
  if (op.method === 'GET') {
    commits.whenCommitted(() => send(reply, op, run()), fail);
  } else {
    commits.write(run, (result) => send(reply, op, result), fail);
  }
}

/** A handler's result as the answer: JSON text as is, an object as JSON, 204 with nothing. */
function send(reply: FastifyReply, op: Operation, result: unknown): void {
  if (op.status === 204) {
    reply.code(204).send();
  } else if (result instanceof JsonText) {
    if (result.headers) reply.headers(result.headers);
    reply.code(op.status).type('application/json; charset=utf-8').send(result.text);
  } else {
    reply.code(op.status).send(result);
  }
}

/** Path ids: a plain length check on the hot path; zod words the problem when there is one. */
function checkParams(op: Operation, schema: z.ZodType, value: unknown): Input['params'] {
  const given = value as Record<string, unknown>;
  for (const name of op.params) {
    const v = given[name];
    if (typeof v !== 'string' || v.length < 10) return parse(schema, value) as Input['params'];
  }
  return given as Input['params'];
}

function parse(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw new ServiceError(400, describeIssue(result.error));
  return result.data;
}
