/**
 * The request bodies and the list query of the work-management interface, as zod schemas:
 * the embedded service validates with them, WorkClient validates before sending, and
 * `describeIssue` words the first problem as "<field>: <problem>".
 */
import { z } from 'zod';
import { PRIORITY_NAMES } from './priority.js';
import { fileSize, formatFileSize, requestDate } from './vocabulary.js';

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
