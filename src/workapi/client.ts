/**
 * WorkClient: one typed method per operation of the work-management interface.
 *
 * Requests are validated with the contract before they leave the process; responses are
 * parsed tolerantly. Reads retry network errors and 5xx with jittered backoff; writes are
 * retried only when the request provably never reached the service (connection refused),
 * so a create is never made twice. 429 waits out `Retry-After`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Agent } from 'undici';
import type { z } from 'zod';
import { knownSecrets } from '../secrets.js';
import {
  type ClientOperationName,
  type Comment,
  type CreateProjectBody,
  type CreateTaskBody,
  type Customer,
  describeIssue,
  extraOperations,
  fastTaskListItem,
  type Group,
  type ListTasksQuery,
  type Operation,
  type OperationName,
  operations,
  type PostCommentBody,
  type Project,
  type ProjectDetails,
  pathId,
  responses,
  type Task,
  type TaskListItem,
  type UpdatedTask,
  type UpdateProjectBody,
  type UpdateTaskBody,
  type Verification,
  type WorkspaceUser,
} from './contract.js';
import { errorFromAnswer, isWorkApiError, transportError, WorkApiError } from './errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLargeError, readCapped } from './read-capped.js';
import { type DebugLog, readList, readOne, readWritten } from './reader.js';
import type { ItemReader } from './responses.js';
import { changedBy, type ReadAnswer, readScope, SharedReads, writeEnded } from './shared-reads.js';

export { isWorkApiError, WorkApiError, type WorkErrorKind } from './errors.js';

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
  /** Told when each call starts; the function it returns, when it ends (metrics). */
  timeCall?: (operation: string) => (ok: boolean) => void;
  /** Answers larger than this are refused unread (WORK_MAX_RESPONSE_BYTES; default 8 MiB). */
  maxResponseBytes?: number;
  /** Where dropped list items are noted (debug level). */
  log?: DebugLog;
}

const sharedAgent = new Agent({
  connections: 32,
  keepAliveTimeout: 10_000,
  connect: { timeout: 5_000 },
});

export class WorkClient {
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly baseDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxResponseBytes: number;
  private readonly dispatcher: Agent;
  /** Reads under way, shared by identical asks. */
  private readonly reads = new SharedReads();
  /** Where update task was last answered: alt (spec) or base (some deployments). */
  private updateAddress: Address = 'alt';
  /** Where project details were last had; 'project' = only get project answers. */
  private detailsAddress: Address | 'project' = 'alt';

  constructor(private readonly options: WorkClientOptions) {
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

  verify(): Promise<Verification> {
    return this.read('verify', {}, responses.Verification, VERIFICATION_IDS);
  }

  /** The created task as the service describes it; undefined when its answer does not say. */
  createTask(body: CreateTaskBody): Promise<Task | undefined> {
    return this.write('createTask', { body: withBothNames(body) }, responses.Task, TASK_IDS);
  }

  listTasks(query: ListTasksQuery): Promise<TaskListItem[]> {
    return this.readItems('listTasks', { query }, fastTaskListItem, TASK_IDS);
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
    let totalHeader: string | string[] | undefined;
    const text = await this.call(
      'listTasks',
      { query: { ...query, limit, offset } },
      undefined,
      (h) => {
        totalHeader = h['x-total-count'];
      },
    );
    const tasks = readList('listTasks', responses.TaskListItem, TASK_IDS, text, this.options.log);
    const total = Number(Array.isArray(totalHeader) ? totalHeader[0] : (totalHeader ?? Number.NaN));
    if (Number.isInteger(total) && total >= 0 && tasks.length <= limit) return { tasks, total };
    return { tasks: tasks.slice(offset, offset + limit), total: tasks.length };
  }

  getTask(taskId: string): Promise<Task> {
    return this.read('getTask', { params: { taskId } }, responses.Task, TASK_IDS);
  }

  /**
   * Spec: PUT {alt_url}/task/updateTask/{id}. Some deployments serve it on {base_url}
   * only: a 401, 403, 404 or 405 there, or an answer that is not JSON (a proxy's page),
   * sends it to the other address, which is then used first.
   */
  async updateTask(taskId: string, body: UpdateTaskBody): Promise<UpdatedTask | undefined> {
    const input = { params: { taskId }, body: withBothNames(body) };
    const put = (address: Address) =>
      this.write('updateTask', input, responses.UpdatedTask, UPDATED_TASK_IDS, address);
    const first = this.updateAddress;
    const other = first === 'alt' ? 'base' : 'alt';
    try {
      return await put(first);
    } catch (e) {
      if (!servedElsewhere(e)) throw e;
      const result = await put(other).catch((second: unknown) => {
        throw servedElsewhere(second) && isWorkApiError(second) && second.status !== 401
          ? e
          : second;
      });
      this.updateAddress = other;
      return result;
    }
  }

  postComment(taskId: string, body: PostCommentBody): Promise<Comment | undefined> {
    return this.write('postComment', { params: { taskId }, body }, responses.Comment, COMMENT_IDS);
  }

  createProject(body: CreateProjectBody): Promise<Project | undefined> {
    return this.write('createProject', { body }, responses.Project, PROJECT_IDS);
  }

  getProject(projectId: string): Promise<Project> {
    return this.read('getProject', { params: { projectId } }, responses.Project, PROJECT_IDS);
  }

  updateProject(projectId: string, body: UpdateProjectBody): Promise<Project | undefined> {
    const input = { params: { projectId }, body };
    return this.write('updateProject', input, responses.Project, PROJECT_IDS);
  }

  /**
   * Spec: GET {alt_url}/project/{id}/getCurrentProjectDetails; else the same path on
   * {base_url}; else get project, read as details whose feature flags are unknown (forms
   * then show every field they cannot rule out).
   */
  async getProjectDetails(projectId: string): Promise<ProjectDetails> {
    const input = { params: { projectId } };
    const get = (address: Address) =>
      this.read('getProjectDetails', input, responses.ProjectDetails, DETAILS_IDS, address);
    const order: Address[] = this.detailsAddress === 'base' ? ['base', 'alt'] : ['alt', 'base'];
    if (this.detailsAddress !== 'project') {
      let firstError: unknown;
      for (const address of order) {
        try {
          const details = await get(address);
          this.detailsAddress = address;
          return details;
        } catch (e) {
          if (!servedElsewhere(e)) throw firstError ?? e;
          firstError ??= e;
        }
      }
    }
    const project = await this.getProject(projectId);
    this.detailsAddress = 'project';
    return detailsFromProject(project);
  }

  listProjectGroups(projectId: string): Promise<Group[]> {
    return this.readItems(
      'listProjectGroups',
      { params: { projectId } },
      responses.Group,
      GROUP_IDS,
    );
  }

  listCustomers(): Promise<Customer[]> {
    return this.readItems('listCustomers', {}, responses.Customer, CUSTOMER_IDS);
  }

  listUsers(): Promise<WorkspaceUser[]> {
    return this.readItems('listUsers', {}, responses.WorkspaceUser, USER_IDS);
  }

  /**
   * The workspace's projects, where the service offers `GET {base_url}/project` (the hosted
   * one does; the spec does not): undefined when it answers 404 or 405.
   */
  async listProjects(): Promise<Project[] | undefined> {
    try {
      return await this.readItems('listProjects', {}, responses.Project, PROJECT_IDS);
    } catch (e) {
      if (isWorkApiError(e) && (e.status === 404 || e.status === 405)) return undefined;
      throw e;
    }
  }

  /**
   * Deletes a project with its tasks (an extension: the hosted service and the embedded one
   * serve it; docs/service-extensions.md). Any 2xx is done.
   */
  async deleteProject(projectId: string): Promise<void> {
    await this.call('deleteProject', { params: { projectId } });
  }

  private async read<T>(
    name: ClientOperationName,
    input: CallInput,
    schema: z.ZodType<T>,
    ids: readonly string[],
    address?: Address,
  ): Promise<T> {
    return readOne(name, schema, ids, await this.call(name, input, address));
  }

  private async readItems<T>(
    name: ClientOperationName,
    input: CallInput,
    item: ItemReader<T>,
    ids: readonly string[],
  ): Promise<T[]> {
    return readList(name, item, ids, await this.call(name, input), this.options.log);
  }

  private async write<T>(
    name: ClientOperationName,
    input: CallInput,
    schema: z.ZodType<T>,
    ids: readonly string[],
    address?: Address,
  ): Promise<T | undefined> {
    return readWritten(schema, ids, await this.call(name, input, address));
  }

  /**
   * The text of a 2xx answer (its headers to `onHeaders`); every other outcome is a
   * WorkApiError. A read joins the same read under way (shared-reads.ts).
   */
  private async call(
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
    const key = `${name} ${address ?? ''} ${JSON.stringify(input)}`;
    const scope = readScope(name, input.params);
    const answer = await this.reads.read(key, scope, () => this.timed(name, input, address));
    onHeaders?.(answer.headers);
    return answer.text;
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

type Address = 'base' | 'alt';

function operationOf(name: ClientOperationName): Operation {
  return name in operations
    ? operations[name as OperationName]
    : extraOperations[name as keyof typeof extraOperations];
}
interface CallInput {
  params?: Record<string, string>;
  body?: unknown;
  query?: Record<string, unknown>;
}

// The id a response must have, then the other names it may come under.
const TASK_IDS = ['taskId', '_id', 'id'];
const UPDATED_TASK_IDS = ['_id', 'taskId', 'id'];
const PROJECT_IDS = ['projectId', '_id', 'id'];
const DETAILS_IDS = ['_id', 'projectId', 'id'];
const COMMENT_IDS = ['commentId', '_id', 'id'];
const GROUP_IDS = ['groupId', '_id', 'id'];
const CUSTOMER_IDS = ['customerId', '_id', 'id'];
const USER_IDS = ['id', '_id', 'userId'];
const VERIFICATION_IDS = ['workspaceId', '_id', 'companyId', 'id'];

/**
 * The spec names the task's name `name`; the hosted service reads `taskName` (what its
 * public clients send). Both are sent, with the same value.
 */
function withBothNames<B extends { name?: string; taskName?: string }>(body: B): B {
  const name = body.name ?? body.taskName;
  return name === undefined ? body : { ...body, name, taskName: name };
}

/** An answer that says "not here" rather than "no": try the other address. */
function servedElsewhere(e: unknown): boolean {
  if (!isWorkApiError(e) || e.status === 0) return false;
  return [401, 403, 404, 405].includes(e.status) || !e.fromJson;
}

/** Get project read as project details: feature flags and statuses unknown. */
function detailsFromProject(p: Project): ProjectDetails {
  return {
    _id: p.projectId,
    Name: p.projectName,
    Description: p.description,
    CustomerId: p.customerId,
    StartDate: p.startDate,
    FavoriteUsers: p.favoriteUsers,
    ProjectUsers: p.projectUsers,
  } as ProjectDetails;
}
