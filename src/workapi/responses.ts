/**
 * Every response shape of the spec, written once in a vocabulary (fields.ts) and built twice:
 * `strictResponses` for the embedded service's contract tests, `responses` (tolerant) for
 * what WorkClient reads. Only the ids Worklink uses are required; `_id` stands in for each.
 */
import type { z } from 'zod';
import {
  type Fields,
  readId,
  readNumber,
  readText,
  strictFields,
  tolerantFields,
} from './fields.js';
import { isRecord } from './records.js';

/** Where a task's number may come: the extension's name, else the update answer's. */
const NUMBER_ALIASES = { taskNumber: ['TaskNumber'] } as const;

function buildResponses(f: Fields) {
  const TaskFile = f.obj({
    file_type: f.text,
    href: f.text,
    size: f.text,
    name: f.text,
    uploadFileType: f.num,
  });

  const Project = f.obj(
    {
      projectId: f.id,
      projectName: f.text,
      workspaceId: f.text,
      ownerId: f.text,
      description: f.text,
      customerId: f.nullableText,
      startDate: f.nullableDateTime,
      dueDate: f.nullableDateTime,
      favoriteUsers: f.texts,
      projectUsers: f.texts,
    },
    { id: 'projectId', aliases: ['id'] },
  );

  const audit = {
    CreatedBy: f.text,
    UpdatedBy: f.text,
    CreatedTime: f.dateTime,
    UpdatedTime: f.dateTime,
  };

  const StatusEntry = f.obj(
    { _id: f.id, Name: f.text, Type: f.int, Index: f.int, Default: f.bool },
    { id: '_id', aliases: ['statusId', 'id'] },
  );

  const ProjectDetails = f.obj(
    {
      _id: f.id,
      Name: f.text,
      CompanyId: f.text,
      Description: f.text,
      CreatedBy: f.text,
      CreatedTime: f.dateTime,
      UpdatedTime: f.dateTime,
      StartDate: f.nullableDateTime,
      CustomerId: f.nullableText,
      IsMilestone: f.bool,
      IsEstimate: f.bool,
      Priority: f.nested({ Enabled: f.bool, Default: f.priorityInt }),
      FavoriteUsers: f.texts,
      LabelsList: f.list(f.obj({ _id: f.text, Name: f.text, Color: f.text, ...audit })),
      ScmRepository: f.nullableInt,
      LabelsEnabled: f.bool,
      StatusEnable: f.bool,
      IsGroupEnabled: f.bool,
      MultiAsignee: f.bool,
      Icon: f.nested({ Type: f.int, Reference: f.text, Color: f.int }),
      taskFilter: f.nested({}),
      Resources: f.list(
        f.obj({
          _id: f.text,
          Type: f.int,
          Label: f.text,
          Reference: f.text,
          FileType: f.text,
          UploadFileType: f.int,
          ...audit,
        }),
      ),
      deployProject: f.nested({
        id: f.text,
        AccountId: f.text,
        Name: f.text,
        ScmRepoId: f.text,
      }),
      ProjectUsers: f.texts,
      Status: f.list(StatusEntry),
    },
    { id: '_id', aliases: ['projectId', 'id'] },
  );

  const Task = f.obj(
    {
      taskId: f.id,
      taskName: f.text,
      projectId: f.text,
      groupId: f.nullableText,
      group: f.nullableText,
      description: f.text,
      status: f.bool,
      subscribers: f.texts,
      dueDate: f.nullableDateTime,
      priority: f.priorityString,
      estimateTime: f.nullableInt,
      milestoneId: f.nullableInt,
      taskUsers: f.list(
        f.obj(
          { taskUserId: f.id },
          { id: 'taskUserId', aliases: ['userId', 'id'], fromBareId: true },
        ),
      ),
      /** Extension (docs/service-extensions.md): the task's number; hosted answers say TaskNumber. */
      taskNumber: f.int,
    },
    { id: 'taskId', aliases: ['id'], fieldAliases: NUMBER_ALIASES },
  );

  const TaskListItem = f.obj(
    { taskId: f.id, taskName: f.text, taskNumber: f.int },
    { id: 'taskId', aliases: ['id'], fieldAliases: NUMBER_ALIASES },
  );

  const TaskComment = f.obj(
    {
      _id: f.id,
      Type: f.num,
      CreatedTime: f.dateTime,
      CreatedBy: f.text,
      UpdatedBy: f.text,
      UpdatedTime: f.dateTime,
      IsScm: f.nullableBool,
      Comment: f.nullableText,
      Assignee: f.nullableText,
      PreviousPriority: f.nullableNum,
      Priority: f.nullableNum,
      DueDate: f.nullableDateTime,
      PreviousDueDate: f.nullableDateTime,
      Group: f.nullableText,
      PreviousGroup: f.nullableText,
      Status: f.nullableBool,
      EstimateTime: f.nullableNum,
      IsArchived: f.nullableBool,
      Reactions: f.list(f.obj({ ReactionType: f.id, UserId: f.id, _id: f.id })),
      Audio: f.nullableNested({ Url: f.text, Duration: f.text }),
      Files: f.list(TaskFile),
      Reply: f.nullableNested({
        id: f.text,
        CreatedTime: f.dateTime,
        message: f.text,
        files: f.list(TaskFile),
        Sender_id: f.text,
      }),
    },
    { id: '_id' },
  );

  const UpdatedTask = f.obj(
    {
      _id: f.id,
      Name: f.text,
      ProjectId: f.text,
      Subscribers: f.texts,
      GroupId: f.nullableText,
      Labels: f.texts,
      TaskUsers: f.list(
        f.obj(
          { _id: f.id, ...audit },
          { id: '_id', aliases: ['taskUserId', 'userId', 'id'], fromBareId: true },
        ),
      ),
      Files: f.list(TaskFile),
      Comments: f.list(TaskComment),
      ...audit,
      Desc: f.text,
      StatusId: f.text,
      Status: f.bool,
      TaskNumber: f.int,
      ParentTaskId: f.nullableText,
      Priority: f.priorityInt,
      DueDate: f.nullableDateTime,
    },
    { id: '_id', aliases: ['taskId', 'id'] },
  );

  const Comment = f.obj({ commentId: f.id, content: f.text }, { id: 'commentId', aliases: ['id'] });
  const Group = f.obj(
    { groupId: f.id, groupName: f.text, projectId: f.text },
    { id: 'groupId', aliases: ['id'] },
  );
  const Customer = f.obj(
    {
      customerId: f.id,
      address: f.text,
      firstName: f.text,
      lastName: f.text,
      email: f.text,
      companyName: f.text,
      phone: f.text,
      clients: f.list(
        f.obj({ clientId: f.id, name: f.text, email: f.text }, { id: 'clientId', aliases: ['id'] }),
      ),
    },
    { id: 'customerId', aliases: ['id'] },
  );
  const WorkspaceUser = f.obj(
    {
      id: f.id,
      name: f.text,
      email: f.text,
      phone: f.text,
      profile_photo: f.text,
      isOwner: f.bool,
      isAdmin: f.bool,
    },
    { id: 'id', aliases: ['userId'] },
  );
  const Verification = f.obj(
    { workspaceId: f.id, workspaceName: f.text, createdBy: f.text },
    { id: 'workspaceId', aliases: ['companyId', 'id'] },
  );

  return {
    Project,
    ProjectList: f.answerList(Project),
    ProjectDetails,
    StatusEntry,
    Task,
    TaskListItem,
    TaskList: f.answerList(TaskListItem),
    UpdatedTask,
    TaskComment,
    TaskFile,
    Comment,
    Group,
    GroupList: f.answerList(Group),
    Customer,
    CustomerList: f.answerList(Customer),
    WorkspaceUser,
    WorkspaceUserList: f.answerList(WorkspaceUser),
    Verification,
    ErrorBody: f.obj({ error: f.id }),
  };
}

/** Tolerant response schemas, used by WorkClient. */

/** What reads one item: a zod schema, or a hand-written reader with the same answer. */
export interface ItemReader<T> {
  safeParse(raw: unknown): { success: true; data: T } | { success: false };
}

export const responses = buildResponses(tolerantFields);
/** Strict response schemas, used by the contract tests against the embedded service. */
export const strictResponses = buildResponses(strictFields);

export type ResponseName = keyof typeof responses;

export type Project = z.infer<typeof responses.Project>;
export type ProjectDetails = z.infer<typeof responses.ProjectDetails>;
export type StatusEntry = z.infer<typeof responses.StatusEntry>;
export type Task = z.infer<typeof responses.Task>;
export type TaskListItem = z.infer<typeof responses.TaskListItem>;
export type UpdatedTask = z.infer<typeof responses.UpdatedTask>;
export type TaskComment = z.infer<typeof responses.TaskComment>;
export type Comment = z.infer<typeof responses.Comment>;
export type Group = z.infer<typeof responses.Group>;
export type Customer = z.infer<typeof responses.Customer>;
export type WorkspaceUser = z.infer<typeof responses.WorkspaceUser>;
export type Verification = z.infer<typeof responses.Verification>;

/**
 * `responses.TaskListItem`, hand-written: the watcher reads every watched project's list each
 * interval, and this answers the same (a test holds them equal) at a fraction of the cost.
 */
export const fastTaskListItem: ItemReader<TaskListItem> = {
  safeParse(raw) {
    if (!isRecord(raw)) return { success: false };
    const r = raw;
    const taskId = readId(r.taskId) ?? readId(r._id) ?? readId(r.id);
    if (taskId === undefined) return { success: false };
    const data: TaskListItem = { ...r, taskId };
    const taskName = r.taskName === null ? undefined : readText(r.taskName);
    if (taskName === undefined) delete data.taskName;
    else data.taskName = taskName;
    // As fieldAliases reads it: the first name that is set, whatever it holds.
    const taskNumber = wholeNumber(
      r.taskNumber !== undefined && r.taskNumber !== null ? r.taskNumber : r.TaskNumber,
    );
    if (taskNumber === undefined) delete data.taskNumber;
    else data.taskNumber = taskNumber;
    return { success: true, data };
  },
};

function wholeNumber(v: unknown): number | undefined {
  const n = v === null ? undefined : readNumber(v);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}
