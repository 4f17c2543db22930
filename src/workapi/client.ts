/**
 * WorkClient: one typed method per operation of the work-management interface, on top of
 * WorkCalls (transport.ts: validation, retries, time limits). Answers are read tolerantly
 * (reader.ts); where deployments differ (update task's and project details' addresses,
 * list paging, the list-projects extension), the method finds out and remembers.
 */
import type { z } from 'zod';
import {
  type ClientOperationName,
  type Comment,
  type CreateProjectBody,
  type CreateTaskBody,
  type Customer,
  fastTaskListItem,
  type Group,
  type ListTasksQuery,
  type PostCommentBody,
  type Project,
  type ProjectDetails,
  responses,
  type Task,
  type TaskListItem,
  type UpdatedTask,
  type UpdateProjectBody,
  type UpdateTaskBody,
  type Verification,
  type WorkspaceUser,
} from './contract.js';
import { isWorkApiError } from './errors.js';
import { type DebugLog, readList, readOne, readWritten } from './reader.js';
import type { ItemReader } from './responses.js';
import { OnceRead } from './shared-reads.js';
import { type Address, type CallInput, type WorkCallOptions, WorkCalls } from './transport.js';

export { isWorkApiError, WorkApiError, type WorkErrorKind } from './errors.js';

export interface WorkClientOptions extends WorkCallOptions {
  /** Where dropped list items are noted (debug level). */
  log?: DebugLog;
}

export class WorkClient {
  private readonly calls: WorkCalls;
  /** Where update task was last answered: alt (spec) or base (some deployments). */
  private updateAddress: Address = 'alt';
  /** Where project details were last had; 'project' = only get project answers. */
  private detailsAddress: Address | 'project' = 'alt';

  constructor(private readonly options: WorkClientOptions) {
    this.calls = new WorkCalls(options);
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
    const text = await this.calls.call(
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

  async getTask(taskId: string): Promise<Task> {
    // Parsed once however many callers share the read (a burst's lists read the same tasks).
    const answer = await this.calls.read('getTask', { params: { taskId } });
    return taskReads.take(answer, (text) => readOne('getTask', responses.Task, TASK_IDS, text));
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
    await this.calls.call('deleteProject', { params: { projectId } });
  }

  private async read<T>(
    name: ClientOperationName,
    input: CallInput,
    schema: z.ZodType<T>,
    ids: readonly string[],
    address?: Address,
  ): Promise<T> {
    return readOne(name, schema, ids, await this.calls.call(name, input, address));
  }

  private async readItems<T>(
    name: ClientOperationName,
    input: CallInput,
    item: ItemReader<T>,
    ids: readonly string[],
  ): Promise<T[]> {
    return readList(name, item, ids, await this.calls.call(name, input), this.options.log);
  }

  private async write<T>(
    name: ClientOperationName,
    input: CallInput,
    schema: z.ZodType<T>,
    ids: readonly string[],
    address?: Address,
  ): Promise<T | undefined> {
    return readWritten(schema, ids, await this.calls.call(name, input, address));
  }
}

const taskReads = new OnceRead<Task>();

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
  return responses.ProjectDetails.parse({
    _id: p.projectId,
    Name: p.projectName,
    Description: p.description,
    CustomerId: p.customerId,
    StartDate: p.startDate,
    FavoriteUsers: p.favoriteUsers,
    ProjectUsers: p.projectUsers,
  });
}
