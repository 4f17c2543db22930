import type { z } from 'zod';
import type { ExtraOperationName, OperationName, operations } from '../workapi/contract.js';
import { listCustomers } from './customers.js';
import type { Db } from './db.js';
import { groupList } from './groups.js';
import { JsonText } from './json-text.js';
import { deleteProject, listProjects } from './project-extensions.js';
import {
  createProject,
  getProject,
  loadProject,
  projectDetails,
  updateProject,
} from './projects.js';
import { createTaskJson } from './task-create.js';
import { listTasksJson } from './task-list.js';
import { getTaskJson } from './task-reads.js';
import { postComment, updateTask } from './task-update.js';
import { listUsers } from './users.js';
import type { Caller } from './workspaces.js';

type Operations = typeof operations;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * Operation N's request after validation (src/service/server.ts): path ids, and the query
 * and body as the contract's schemas for N parse them.
 */
export interface Input<N extends OperationName = OperationName> {
  params: { taskId: string; projectId: string };
  query: Parsed<Operations[N] extends { query: infer Q } ? Q : undefined>;
  body: Parsed<Operations[N] extends { body: infer B } ? B : undefined>;
}

export interface HandlerContext {
  db: Db;
  caller: Caller;
  /** Tells the event worker that an event was committed. */
  eventRecorded(): void;
}

/** One function per operation of the contract, each given its own operation's input. */
export type Handlers = { [N in OperationName]: (ctx: HandlerContext, input: Input<N>) => unknown };

/** One function per operation of the contract; each translates to a domain call. */
export const handlers: Handlers = {
  verify: ({ caller }) => ({
    workspaceId: caller.workspaceId,
    workspaceName: caller.workspaceName,
    createdBy: caller.userId,
  }),
  createTask: (ctx, { body }) => {
    const task = createTaskJson(ctx.db, ctx.caller, body);
    ctx.eventRecorded();
    return new JsonText(task);
  },
  listTasks: ({ db, caller }, { query }) => {
    const { body, total } = listTasksJson(db, caller, query);
    return new JsonText(body, total === undefined ? undefined : { 'x-total-count': String(total) });
  },
  getTask: ({ db, caller }, { params }) => new JsonText(getTaskJson(db, caller, params.taskId)),
  // Both record an event (task.updated when something changed, task.commented).
  updateTask: (ctx, { params, body }) => {
    const updated = updateTask(ctx.db, ctx.caller, params.taskId, body);
    ctx.eventRecorded();
    return updated;
  },
  postComment: (ctx, { params, body }) => {
    const comment = postComment(ctx.db, ctx.caller, params.taskId, body.content);
    ctx.eventRecorded();
    return comment;
  },
  createProject: ({ db, caller }, { body }) => createProject(db, caller, body),
  getProject: ({ db, caller }, { params }) => getProject(db, caller, params.projectId),
  updateProject: ({ db, caller }, { params, body }) =>
    updateProject(db, caller, params.projectId, body),
  getProjectDetails: ({ db, caller }, { params }) => projectDetails(db, caller, params.projectId),
  listProjectGroups: ({ db, caller }, { params }) =>
    groupList(db, loadProject(db, caller.workspaceId, params.projectId).id),
  listCustomers: ({ db, caller }) => listCustomers(db, caller.workspaceId),
  listUsers: ({ db, caller }) => listUsers(db, caller.workspaceId),
};

/** The extensions (docs/service-extensions.md): path ids only, no query or body. */
export const extensionHandlers: {
  [N in ExtraOperationName]: (ctx: HandlerContext, input: Pick<Input, 'params'>) => unknown;
} = {
  listProjects: ({ db, caller }) => listProjects(db, caller),
  deleteProject: ({ db, caller }, { params }) => deleteProject(db, caller, params.projectId),
};
