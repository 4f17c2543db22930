import type {
  CreateProjectBody,
  CreateTaskBody,
  OperationName,
  PostCommentBody,
  UpdateProjectBody,
  UpdateTaskBody,
} from '../workapi/contract.js';
import { listCustomers } from './customers.js';
import type { Db } from './db.js';
import { groupList } from './groups.js';
import { JsonText } from './json-text.js';
import {
  createProject,
  getProject,
  loadProject,
  projectDetails,
  updateProject,
} from './projects.js';
import {
  createTask,
  getTaskJson,
  type ListTaskQuery,
  listTasksJson,
  postComment,
  updateTask,
} from './tasks.js';
import { listUsers } from './users.js';
import type { Caller } from './workspaces.js';

/** A request after validation: path ids, query and body already match the contract. */
export interface Input {
  params: { taskId: string; projectId: string };
  query: unknown;
  body: unknown;
}

export interface HandlerContext {
  db: Db;
  caller: Caller;
  /** Tells the event worker that an event was committed. */
  eventRecorded(): void;
}

type Handler = (ctx: HandlerContext, input: Input) => unknown;

/** One function per operation of the contract; each translates to a domain call. */
export const handlers: Record<OperationName, Handler> = {
  verify: ({ caller }) => ({
    workspaceId: caller.workspaceId,
    workspaceName: caller.workspaceName,
    createdBy: caller.userId,
  }),
  createTask: (ctx, { body }) => {
    const task = createTask(ctx.db, ctx.caller, body as CreateTaskBody);
    ctx.eventRecorded();
    return task;
  },
  listTasks: ({ db, caller }, { query }) => {
    const { json, total } = listTasksJson(db, caller, query as ListTaskQuery);
    return new JsonText(json, total === undefined ? undefined : { 'x-total-count': String(total) });
  },
  getTask: ({ db, caller }, { params }) => new JsonText(getTaskJson(db, caller, params.taskId)),
  updateTask: ({ db, caller }, { params, body }) =>
    updateTask(db, caller, params.taskId, body as UpdateTaskBody),
  postComment: ({ db, caller }, { params, body }) =>
    postComment(db, caller, params.taskId, (body as PostCommentBody).content),
  createProject: ({ db, caller }, { body }) => createProject(db, caller, body as CreateProjectBody),
  getProject: ({ db, caller }, { params }) => getProject(db, caller, params.projectId),
  updateProject: ({ db, caller }, { params, body }) =>
    updateProject(db, caller, params.projectId, body as UpdateProjectBody),
  getProjectDetails: ({ db, caller }, { params }) => projectDetails(db, caller, params.projectId),
  listProjectGroups: ({ db, caller }, { params }) =>
    groupList(db, loadProject(db, caller.workspaceId, params.projectId).id),
  listCustomers: ({ db, caller }) => listCustomers(db, caller.workspaceId),
  listUsers: ({ db, caller }) => listUsers(db, caller.workspaceId),
};
