/**
 * WorkClient: one typed method per operation of the work-management interface.
 *
 * Requests are validated with the contract before they leave the process; responses are
 * parsed tolerantly. Reads retry network errors and 5xx with jittered backoff; writes are
 * retried only when the request provably never reached the service (connection refused),
 * so a create is never made twice. 429 waits out `Retry-After`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, errors as undiciErrors } from 'undici';
import type { z } from 'zod';
import {
  type CreateProjectBody,
  type CreateTaskBody,
  describeIssue,
  type ListTasksQuery,
  type OperationName,
  operations,
  type PostCommentBody,
  pathId,
  responses,
  type TaskListItem,
  type UpdateProjectBody,
  type UpdateTaskBody,
} from './contract.js';
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLargeError, readCapped } from './read-capped.js';

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
  constructor(
    readonly operation: OperationName,
    readonly status: number,
    readonly kind: WorkErrorKind,
    message: string,
    /** True when the request was never sent (so nothing changed on the service). */
    readonly notSent = false,
  ) {
    super(message);
  }
}

export function isWorkApiError(e: unknown): e is WorkApiError {
  return e instanceof WorkApiError;
}

export interface WorkClientOptions {
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
  /** Answers larger than this are refused unread (WORK_MAX_RESPONSE_BYTES; default 8 MiB). */
  maxResponseBytes?: number;
}

const sharedAgent = new Agent({
  connections: 32,
  keepAliveTimeout: 10_000,
  connect: { timeout: 5_000 },
});

type Parsed<N extends keyof typeof responses> = z.infer<(typeof responses)[N]>;

export class WorkClient {
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly baseDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxResponseBytes: number;
  private readonly dispatcher: Agent;
  /** Where update task was last answered: alt (spec) or base (some deployments). */
  private updateAddress: 'alt' | 'base' = 'alt';

  constructor(private readonly options: WorkClientOptions) {
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

  verify() {
    return this.call('verify', {});
  }

  createTask(body: CreateTaskBody) {
    return this.call('createTask', { body });
  }

  listTasks(query: ListTasksQuery) {
    return this.call('listTasks', { query });
  }

  /**
   * One page of list tasks: `limit` tasks from `offset`. The embedded service pages the list
   * itself and says the whole length in X-Total-Count; a service that does not know paging
   * ignores the query and answers every task, which is cut here. Either way the caller gets
   * the page and the total.
   */
  async listTasksPage(
    query: Omit<ListTasksQuery, 'limit' | 'offset'>,
    { limit, offset }: { limit: number; offset: number },
  ): Promise<{ tasks: TaskListItem[]; total: number }> {
    let totalHeader: string | undefined;
    const tasks = await this.call(
      'listTasks',
      { query: { ...query, limit, offset } },
      undefined,
      (headers) => {
        const h = headers['x-total-count'];
        totalHeader = Array.isArray(h) ? h[0] : h;
      },
    );
    const total = totalHeader === undefined ? Number.NaN : Number(totalHeader);
    if (Number.isInteger(total) && total >= 0 && tasks.length <= limit) return { tasks, total };
    return { tasks: tasks.slice(offset, offset + limit), total: tasks.length };
  }

  getTask(taskId: string) {
    return this.call('getTask', { params: { taskId } });
  }

  /** Spec: PUT {alt_url}/task/updateTask/{id}; falls back to {base_url} on 404. */
  async updateTask(taskId: string, body: UpdateTaskBody) {
    const first = this.updateAddress;
    try {
      return await this.call('updateTask', { params: { taskId }, body }, first);
    } catch (e) {
      if (!(isWorkApiError(e) && e.status === 404)) throw e;
      const other = first === 'alt' ? 'base' : 'alt';
      const result = await this.call('updateTask', { params: { taskId }, body }, other);
      this.updateAddress = other;
      return result;
    }
  }

  postComment(taskId: string, body: PostCommentBody) {
    return this.call('postComment', { params: { taskId }, body });
  }

  createProject(body: CreateProjectBody) {
    return this.call('createProject', { body });
  }

  getProject(projectId: string) {
    return this.call('getProject', { params: { projectId } });
  }

  updateProject(projectId: string, body: UpdateProjectBody) {
    return this.call('updateProject', { params: { projectId }, body });
  }

  getProjectDetails(projectId: string) {
    return this.call('getProjectDetails', { params: { projectId } });
  }

  listProjectGroups(projectId: string) {
    return this.call('listProjectGroups', { params: { projectId } });
  }

  listCustomers() {
    return this.call('listCustomers', {});
  }

  listUsers() {
    return this.call('listUsers', {});
  }

  private async call<N extends OperationName>(
    name: N,
    input: { params?: Record<string, string>; body?: unknown; query?: Record<string, unknown> },
    address?: 'base' | 'alt',
    /** Sees the headers of the successful answer. */
    onHeaders?: (headers: IncomingHttpHeaders) => void,
  ): Promise<Parsed<(typeof operations)[N]['response']>> {
    const op = operations[name];
    const url = this.buildUrl(name, address ?? op.address, input);
    let payload: string | undefined;
    if ('body' in op) {
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
        if (status >= 200 && status < 300) {
          onHeaders?.(outcome.headers);
          return this.parse(name, op.response, text) as Parsed<(typeof operations)[N]['response']>;
        }
        const error = errorFromAnswer(name, status, text);
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

  private buildUrl(
    name: OperationName,
    address: 'base' | 'alt',
    input: { params?: Record<string, string>; query?: Record<string, unknown> },
  ): URL {
    const op = operations[name];
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
    if ('query' in op) {
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
    name: OperationName,
    method: string,
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
        method: method as 'GET',
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

  private parse<R extends keyof typeof responses>(
    name: OperationName,
    response: R,
    text: string,
  ): Parsed<R> {
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new WorkApiError(
        name,
        200,
        'server',
        'The service answered with something that is not JSON.',
      );
    }
    const parsed = responses[response].safeParse(json);
    if (!parsed.success) {
      throw new WorkApiError(
        name,
        200,
        'server',
        `The service answered in an unexpected shape (${describeIssue(parsed.error)}).`,
      );
    }
    return parsed.data as Parsed<R>;
  }

  private backoff(attempt: number): number {
    // Full jitter: spreads retries of many clients that failed at the same moment.
    return Math.random() * this.baseDelayMs * 2 ** (attempt - 1);
  }
}

/** The service's message: `error`, else `message`, else the text itself. */
function errorFromAnswer(name: OperationName, status: number, text: string): WorkApiError {
  let message = text.trim().slice(0, 500);
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body?.error === 'string') message = body.error;
    else if (typeof body?.message === 'string') message = body.message;
  } catch {
    // Not JSON: the text is the message.
  }
  if (!message) message = `HTTP ${status}`;
  const kind: WorkErrorKind =
    status === 401 || status === 403
      ? 'auth'
      : status === 404
        ? 'not_found'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'server'
            : 'invalid';
  return new WorkApiError(name, status, kind, message);
}

function transportError(name: OperationName, e: unknown, timeoutMs: number): WorkApiError {
  const err = e as { name?: string; code?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
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
