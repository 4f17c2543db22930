/**
 * A WorkClient for tests against the embedded service, whose writes always describe what
 * they made: each write's answer is asserted present, so tests can use it directly.
 */
import { WorkClient } from '../../src/workapi/client.js';
import type {
  CreateProjectBody,
  CreateTaskBody,
  PostCommentBody,
  UpdateProjectBody,
  UpdateTaskBody,
} from '../../src/workapi/contract.js';

function sure<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: the service's answer said nothing`);
  return value;
}

export class SureWorkClient extends WorkClient {
  override async createTask(body: CreateTaskBody) {
    return sure(await super.createTask(body), 'createTask');
  }
  override async updateTask(taskId: string, body: UpdateTaskBody) {
    return sure(await super.updateTask(taskId, body), 'updateTask');
  }
  override async postComment(taskId: string, body: PostCommentBody) {
    return sure(await super.postComment(taskId, body), 'postComment');
  }
  override async createProject(body: CreateProjectBody) {
    return sure(await super.createProject(body), 'createProject');
  }
  override async updateProject(projectId: string, body: UpdateProjectBody) {
    return sure(await super.updateProject(projectId, body), 'updateProject');
  }
}
