/**
 * One call to the work-management service over HTTP: the address built from the operation
 * table, path ids, query and body checked with the contract before anything leaves, the
 * answer read up to a size limit, retries (reads on network errors and 5xx with jittered
 * backoff; writes only when the request provably never left, so a create is never made
 * twice; 429 waits out `Retry-After`), a time limit per attempt, and identical reads under
 * way shared (shared-reads.ts). WorkClient (client.ts) gives each operation its typed
 * method on top.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Agent } from 'undici';
import { knownSecrets } from '../secrets.js';
import {
  type ClientOperationName,
  describeIssue,
  extraOperations,
  isOperationName,
  type Operation,
  operations,
  pathId,
} from './contract.js';
import { errorFromAnswer, transportError, WorkApiError } from './errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLargeError, readCapped } from './read-capped.js';
import {
  changedBy,
  type ReadAnswer,
  readScope,
  type SharedAnswer,
  SharedReads,
  writeEnded,
} from './shared-reads.js';

export interface WorkCallOptions {
  /** `{base_url}`, e.g. https://work.example.com/v1.0 */
  baseUrl: string;
  /** `{alt_url}`, e.g. https://work.example.com/api/v1 */
  altUrl: string;
  apiKey: string;
  /** Whole-request time limit, including the body. */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /** Attempts for reads (and for writes that were never sent); delays grow from baseDelayMs. */
  retry?: { attempts?: number; baseDelayMs?: number; maxRetryAfterMs?: number };
  /** Share one pool across clients (one per Slack workspace). */
  dispatcher?: Agent;
  /** Told when each call starts; the function it returns, when it ends (metrics). */
  timeCall?: (operation: string) => (ok: boolean) => void;
  /** Answers larger than this are refused unread (WORK_MAX_RESPONSE_BYTES; default 8 MiB). */
  maxResponseBytes?: number;
}

const sharedAgent = new Agent({
  connections: 32,
  keepAliveTimeout: 10_000,
  connect: { timeout: 5_000 },
});

export class WorkCalls {
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly baseDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxResponseBytes: number;
  private readonly dispatcher: Agent;
  /** Reads under way, shared by identical asks. */
  private readonly reads = new SharedReads();

  constructor(private readonly options: WorkCallOptions) {
    // Whatever the key is for (the workspace's, one being checked, a person's), it is a secret.
    knownSecrets.add(options.apiKey);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.attempts = options.retry?.attempts ?? 3;
    this.baseDelayMs = options.retry?.baseDelayMs ?? 250;
    this.maxRetryAfterMs = options.retry?.maxRetryAfterMs ?? 30_000;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.dispatcher =
      options.dispatcher ??
      (options.connectTimeoutMs
        ? new Agent({ connections: 32, connect: { timeout: options.connectTimeoutMs } })
        : sharedAgent);
  }

  /**
   * The text of a 2xx answer (its headers to `onHeaders`); every other outcome is a
   * WorkApiError. A read joins the same read under way (shared-reads.ts).
   */
  async call(
    name: ClientOperationName,
    input: CallInput,
    address?: Address,
    onHeaders?: (headers: IncomingHttpHeaders) => void,
  ): Promise<string> {
    if (operationOf(name).method !== 'GET') {
      try {
        return (await this.timed(name, input, address)).text;
      } finally {
        writeEnded(changedBy(name, input.params));
      }
    }
    const answer = await this.read(name, input, address);
    onHeaders?.(answer.headers);
    return answer.text;
  }

  /** A GET's 2xx answer, shared with the callers of the same read under way. */
  read(name: ClientOperationName, input: CallInput, address?: Address): Promise<SharedAnswer> {
    const key = `${name} ${address ?? ''} ${JSON.stringify(input)}`;
    const scope = readScope(name, input.params);
    return this.reads.read(key, scope, () => this.timed(name, input, address));
  }

  private async timed(
    name: ClientOperationName,
    input: CallInput,
    address?: Address,
  ): Promise<ReadAnswer> {
    const done = this.options.timeCall?.(name);
    if (!done) return this.callOnce(name, input, address);
    try {
      const answer = await this.callOnce(name, input, address);
      done(true);
      return answer;
    } catch (e) {
      done(false);
      throw e;
    }
  }

  /** `call` itself, retries included. */
  private async callOnce(
    name: ClientOperationName,
    input: CallInput,
    address?: Address,
  ): Promise<ReadAnswer> {
    const op = operationOf(name);
    const url = this.buildUrl(name, address ?? op.address, input);
    let payload: string | undefined;
    if (op.body) {
      const checked = op.body.safeParse(input.body);
      if (!checked.success) {
        throw new WorkApiError(name, 0, 'invalid', describeIssue(checked.error), true);
      }
      payload = JSON.stringify(checked.data);
    }
    const isRead = op.method === 'GET';
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.send(name, op.method, url, payload);
      const last = attempt >= this.attempts;
      // The same question would get the same oversized answer: no retry.
      if (outcome.kind === 'too_large') throw outcome.error;
      if (outcome.kind === 'answer') {
        const { status, text, retryAfterMs } = outcome;
        if (status >= 200 && status < 300) return { text, headers: outcome.headers };
        const error = errorFromAnswer(name, status, text);
        if (status === 429) error.retryAfterMs = retryAfterMs;
        if (status === 429 && !last && retryAfterMs <= this.maxRetryAfterMs) {
          await sleep(retryAfterMs);
          continue;
        }
        if (status >= 500 && isRead && !last) {
          await sleep(this.backoff(attempt));
          continue;
        }
        throw error;
      }
      // No HTTP answer. A read may always be repeated; a write only if it never left.
      if (!last && (isRead || outcome.error.notSent)) {
        await sleep(this.backoff(attempt));
        continue;
      }
      throw outcome.error;
    }
  }

  private buildUrl(name: ClientOperationName, address: 'base' | 'alt', input: CallInput): URL {
    const op: Operation = operationOf(name);
    let path: string = op.path;
    for (const param of op.params) {
      const value = input.params?.[param];
      const checked = pathId.safeParse(value);
      if (!checked.success) {
        throw new WorkApiError(
          name,
          0,
          'invalid',
          `${param}: ${checked.error.issues[0]?.message}`,
          true,
        );
      }
      path = path.replace(`:${param}`, encodeURIComponent(checked.data));
    }
    const root = address === 'alt' ? this.options.altUrl : this.options.baseUrl;
    const url = new URL(root.replace(/\/+$/, '') + path);
    if (op.query) {
      const checked = op.query.safeParse(input.query);
      if (!checked.success) {
        throw new WorkApiError(name, 0, 'invalid', describeIssue(checked.error), true);
      }
      for (const [key, value] of Object.entries(input.query ?? {})) {
        if (value !== undefined) url.searchParams.set(key, String(value));
      }
    }
    return url;
  }

  private async send(
    name: ClientOperationName,
    method: Operation['method'],
    url: URL,
    payload: string | undefined,
  ): Promise<
    | {
        kind: 'answer';
        status: number;
        text: string;
        retryAfterMs: number;
        headers: IncomingHttpHeaders;
      }
    | { kind: 'failure' | 'too_large'; error: WorkApiError }
  > {
    const headers: Record<string, string> = {
      apiKey: this.options.apiKey,
      accept: 'application/json',
    };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await this.dispatcher.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await readCapped(res, this.maxResponseBytes);
      return {
        kind: 'answer',
        status: res.statusCode,
        text,
        retryAfterMs: retryAfterMs(res.headers['retry-after']),
        headers: res.headers,
      };
    } catch (e) {
      if (e instanceof ResponseTooLargeError) {
        const message = `The service's answer was ${e.message} (WORK_MAX_RESPONSE_BYTES), so Worklink stopped reading it.`;
        return { kind: 'too_large', error: new WorkApiError(name, 0, 'too_large', message) };
      }
      return { kind: 'failure', error: transportError(name, e, this.timeoutMs) };
    }
  }

  private backoff(attempt: number): number {
    // Full jitter: spreads retries of many clients that failed at the same moment.
    return Math.random() * this.baseDelayMs * 2 ** (attempt - 1);
  }
}

function retryAfterMs(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return 1_000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1_000 : Math.max(0, date - Date.now());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Where an operation is sent: {base_url} or {alt_url}. */
export type Address = 'base' | 'alt';

export function operationOf(name: ClientOperationName): Operation {
  return isOperationName(name) ? operations[name] : extraOperations[name];
}

/** A call's path ids, query and body, checked against the operation before sending. */
export interface CallInput {
  params?: Record<string, string>;
  body?: unknown;
  query?: Record<string, unknown>;
}
