/**
 * The work-management interface, written once: zod schemas for every request and response
 * shape of docs/work-management-api.md (the spec) and the table of its 13 operations.
 *
 * The embedded service validates requests with these schemas and routes from the table;
 * WorkClient validates before sending and parses responses with the tolerant schemas;
 * the contract tests check the service's responses with the strict ones.
 */
import { z } from 'zod';
import { PRIORITY_NAMES } from './priority.js';
import type { ResponseName } from './responses.js';

// ── Shared vocabulary ────────────────────────────────────────────────────────

export { PRIORITY_NAMES, type PriorityName, priorityNumber } from './priority.js';

/** Task status list entry `Type`: docs/design.md, Status list. */
export const STATUS_TYPE = { todo: 1, inProgress: 2, done: 3 } as const;

/** Task comment `Type` (activity entries): docs/design.md, Update task. */
export const ACTIVITY_TYPE = {
  comment: 1,
  status: 2,
  priority: 3,
  dueDate: 4,
  group: 5,
  assigneeAdded: 6,
  assigneeRemoved: 7,
  estimate: 8,
} as const;

/** True when `yyyy-MM-dd` names a day that exists (rejects 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A request date: `yyyy-MM-dd` that exists on the calendar. */
export const requestDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form yyyy-MM-dd')
  .refine(isCalendarDate, 'is not a date on the calendar');

/** Path ids: strings of at least 10 characters (docs/work-management-api.md, Limits). */
export const pathId = z.string().min(10, 'must be an id of at least 10 characters');

const id = z.string().min(1, 'must not be empty').max(100, 'is too long');
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const priorityValue = z
  .number()
  .int('must be a whole number from 0 to 4')
  .min(0, 'must be from 0 to 4')
  .max(4, 'must be from 0 to 4');
const nonNegativeInt = z
  .number()
  .int('must be a whole number')
  .min(0, 'must not be negative')
  .max(1_000_000, 'is too large');

/** A file's size in the spec's form `00.00 KB|MB|GB`. */
export const fileSize = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,2})? (KB|MB|GB)$/, 'must look like 12.34 KB, MB or GB');

/** A number of bytes in the spec's form: 1536 → "1.50 KB", 5242880 → "5.00 MB". */
export function formatFileSize(bytes: number): string {
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)} ${units[unit]}`;
}

/**
 * A file's size as the spec's string, or (extension, docs/service-extensions.md) a number of
 * bytes as public clients send it, turned into the spec's string.
 */
const fileSizeInput = z.union(
  [
    fileSize,
    z
      .number()
      .int('must be a whole number of bytes')
      .min(0, 'must not be negative')
      .max(2 ** 50, 'is too large')
      .transform(formatFileSize),
  ],
  'must look like 12.34 KB, MB or GB, or be a number of bytes',
);

// ── Request bodies ───────────────────────────────────────────────────────────

export const TaskFileInput = z.strictObject({
  fileType: text(100),
  // A task file is a link to open: web addresses only (no javascript:, data: or file:).
  href: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .max(2000, 'is too long'),
  name: text(500),
  size: fileSizeInput,
});
export type TaskFileInput = z.infer<typeof TaskFileInput>;

const taskFields = {
  name: text(500),
  /** The name as the hosted service's public clients send it; WorkClient sends both. */
  taskName: text(500),
  description: text(20_000),
  priority: priorityValue,
  dueDate: requestDate,
  groupId: id,
  taskUsers: z.array(id).max(100, 'must name at most 100 users'),
  files: z.array(TaskFileInput).max(50, 'must have at most 50 files'),
  estimateTime: nonNegativeInt,
  milestoneId: nonNegativeInt,
  statusId: id,
};

/**
 * Operation 2. `projectId` is required, the rest optional. The name may come as `name` (the
 * spec) or `taskName` (what the hosted service reads); both given must agree.
 */
export const CreateTaskBody = z
  .strictObject({
    projectId: id,
    ...z.object(taskFields).partial().shape,
  })
  .refine((b) => b.name === undefined || b.taskName === undefined || b.name === b.taskName, {
    message: 'must be the same as name when both are given',
    path: ['taskName'],
  });
export type CreateTaskBody = z.infer<typeof CreateTaskBody>;

/** Operation 5: the create-task fields; `projectId` required, the rest optional. */
export const UpdateTaskBody = CreateTaskBody;
export type UpdateTaskBody = CreateTaskBody;

/** A whole number in a query string (text in a URL, a number from a client). */
const queryCount = (min: number, max: number) => {
  const problem = `must be a whole number from ${min} to ${max}`;
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,10}$/, problem)
          .transform(Number),
      ],
      problem,
    )
    .pipe(z.number().int(problem).min(min, problem).max(max, problem))
    .optional();
};

/**
 * Operation 3, query string. `complete` arrives as text in a URL. `limit`/`offset` page the
 * list: an extension of the embedded service (the spec has no paging), which then also
 * answers the whole list's length in the `X-Total-Count` header. A service that does not
 * know them ignores them and answers every task; WorkClient.listTasksPage handles both.
 * Other query parameters are ignored (extension: public clients send their own, such as
 * `page` or `search`; docs/service-extensions.md).
 */
export const ListTasksQuery = z.object({
  projectId: id,
  complete: z
    .union([z.boolean(), z.enum(['true', 'false'])], 'must be true or false')
    .transform((v) => v === true || v === 'true')
    .optional(),
  limit: queryCount(1, 1_000),
  offset: queryCount(0, 1_000_000_000),
});
export type ListTasksQuery = z.input<typeof ListTasksQuery>;

/** Operation 6. */
export const PostCommentBody = z.strictObject({
  content: text(10_000).refine((s) => s.trim().length > 0, 'must not be empty'),
});
export type PostCommentBody = z.infer<typeof PostCommentBody>;

const projectName = text(200).refine((s) => s.trim().length > 0, 'must not be empty');

/** A project's dueDate may not precede its startDate (docs/design.md). */
function datesInOrder(v: { startDate?: string; dueDate?: string }): boolean {
  return !v.startDate || !v.dueDate || v.dueDate >= v.startDate;
}
const datesOrderIssue = { message: 'must not be before startDate', path: ['dueDate'] };

/** Operation 7. docs/design.md: `projectName` is the one mandatory field. */
export const CreateProjectBody = z
  .strictObject({
    projectName,
    customerId: id.optional(),
    startDate: requestDate.optional(),
    dueDate: requestDate.optional(),
    templateId: id.optional(),
  })
  .refine(datesInOrder, datesOrderIssue);
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;

/** Operation 9: every field optional. */
export const UpdateProjectBody = z
  .strictObject({
    projectName: projectName.optional(),
    customerId: id.optional(),
    startDate: requestDate.optional(),
    dueDate: requestDate.optional(),
    description: text(20_000).optional(),
    priority: z.boolean().optional(),
    defaultPriority: z
      .enum(PRIORITY_NAMES, `must be one of ${PRIORITY_NAMES.join(', ')}`)
      .optional(),
    estimate: z.boolean().optional(),
    milestone: z.boolean().optional(),
  })
  .refine(datesInOrder, datesOrderIssue);
export type UpdateProjectBody = z.infer<typeof UpdateProjectBody>;

// ── Responses (responses.ts) ─────────────────────────────────────────────────

export * from './responses.js';

// ── Operations ───────────────────────────────────────────────────────────────

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

/** Every operation WorkClient can call. */
export type ClientOperationName = OperationName | ExtraOperationName;

/** Version segments of the two addresses (docs/work-management-api.md, Versioning). */
export const BASE_PREFIX = '/v1.0';
export const ALT_PREFIX = '/api/v1';

/** One sentence for the first problem of a zod error: "<field>: <problem>" (docs/design.md). */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'body: is not valid';
  if (issue.code === 'unrecognized_keys') return `${issue.keys[0]}: is not a known field`;
  const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
  if (issue.code !== 'invalid_type') return `${field}: ${issue.message}`;
  // zod reports a missing field as an invalid type that "received undefined".
  if (issue.message.endsWith('received undefined')) return `${field}: is required`;
  const expected = issue.expected === 'object' ? 'JSON object' : issue.expected;
  return `${field}: must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
}
