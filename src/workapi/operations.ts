/**
 * The table of the interface's operations: the spec's 13 and the hosted service's two
 * extras, each with its method, address, path, success status, request schemas and
 * response. The embedded service routes from it; WorkClient builds its calls from it.
 */
import type { z } from 'zod';
import {
  CreateProjectBody,
  CreateTaskBody,
  ListTasksQuery,
  PostCommentBody,
  UpdateProjectBody,
  UpdateTaskBody,
} from './requests.js';
import type { ResponseName } from './responses.js';

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** `base` = {base_url} (/v1.0), `alt` = {alt_url} (/api/v1). */
  address: 'base' | 'alt';
  /** Path with `:taskId` / `:projectId` parameters (Fastify's syntax too). */
  path: string;
  /** Success status of the embedded service (docs/design.md: 201 for the three creates). */
  status: 200 | 201 | 204;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Path parameters that must be ids of 10+ characters. */
  params: readonly ('taskId' | 'projectId')[];
  /** undefined: the answer has no body (204). */
  response?: ResponseName;
}

/** The 13 operations of the spec, in its order. */
export const operations = {
  verify: {
    method: 'GET',
    address: 'base',
    path: '/verify',
    status: 200,
    params: [],
    response: 'Verification',
  },
  createTask: {
    method: 'POST',
    address: 'base',
    path: '/task',
    status: 201,
    body: CreateTaskBody,
    params: [],
    response: 'Task',
  },
  listTasks: {
    method: 'GET',
    address: 'base',
    path: '/task',
    status: 200,
    query: ListTasksQuery,
    params: [],
    response: 'TaskList',
  },
  getTask: {
    method: 'GET',
    address: 'base',
    path: '/task/:taskId',
    status: 200,
    params: ['taskId'],
    response: 'Task',
  },
  updateTask: {
    method: 'PUT',
    address: 'alt',
    path: '/task/updateTask/:taskId',
    status: 200,
    body: UpdateTaskBody,
    params: ['taskId'],
    response: 'UpdatedTask',
  },
  postComment: {
    method: 'POST',
    address: 'base',
    path: '/task/:taskId/comments',
    status: 201,
    body: PostCommentBody,
    params: ['taskId'],
    response: 'Comment',
  },
  createProject: {
    method: 'POST',
    address: 'base',
    path: '/project',
    status: 201,
    body: CreateProjectBody,
    params: [],
    response: 'Project',
  },
  getProject: {
    method: 'GET',
    address: 'base',
    path: '/project/:projectId',
    status: 200,
    params: ['projectId'],
    response: 'Project',
  },
  updateProject: {
    method: 'PUT',
    address: 'base',
    path: '/project/:projectId',
    status: 200,
    body: UpdateProjectBody,
    params: ['projectId'],
    response: 'Project',
  },
  getProjectDetails: {
    method: 'GET',
    address: 'alt',
    path: '/project/:projectId/getCurrentProjectDetails',
    status: 200,
    params: ['projectId'],
    response: 'ProjectDetails',
  },
  listProjectGroups: {
    method: 'GET',
    address: 'base',
    path: '/project/:projectId/group',
    status: 200,
    params: ['projectId'],
    response: 'GroupList',
  },
  listCustomers: {
    method: 'GET',
    address: 'base',
    path: '/company/customers',
    status: 200,
    params: [],
    response: 'CustomerList',
  },
  listUsers: {
    method: 'GET',
    address: 'base',
    path: '/company/users',
    status: 200,
    params: [],
    response: 'WorkspaceUserList',
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof operations;

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(operations, name);
}

/**
 * Operations the hosted service offers beyond the spec, which its public clients call; the
 * embedded service serves them too (docs/service-extensions.md). `GET {base_url}/project`
 * lists the workspace's projects; `DELETE {base_url}/project/{projectId}` deletes one with
 * its tasks (204, no body).
 */
export const extraOperations = {
  listProjects: {
    method: 'GET',
    address: 'base',
    path: '/project',
    status: 200,
    params: [],
    response: 'ProjectList',
  },
  deleteProject: {
    method: 'DELETE',
    address: 'base',
    path: '/project/:projectId',
    status: 204,
    params: ['projectId'],
  },
} as const satisfies Record<string, Operation>;

export type ExtraOperationName = keyof typeof extraOperations;

export function isExtraOperationName(name: string): name is ExtraOperationName {
  return Object.hasOwn(extraOperations, name);
}

/** Every operation WorkClient can call. */
export type ClientOperationName = OperationName | ExtraOperationName;

/** Version segments of the two addresses (docs/work-management-api.md, Versioning). */
export const BASE_PREFIX = '/v1.0';
export const ALT_PREFIX = '/api/v1';
