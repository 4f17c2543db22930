/**
 * The task form's fields: their block and action ids (shared by the modal, reading a
 * submission and the listeners), which depend on the project, which an edit may change and
 * their words, and what the form holds (TaskFormValues).
 */
import { ACTION } from '../../ui/block-ids.js';

export type TaskFormMode = 'create' | 'edit';

export type TaskField =
  | 'project'
  | 'name'
  | 'description'
  | 'assignees'
  | 'dueDate'
  | 'priority'
  | 'groupId'
  | 'statusId'
  | 'estimate'
  | 'milestone'
  | 'files';

export const BLOCK: Record<TaskField, string> = {
  project: 'task_project',
  name: 'task_name',
  description: 'task_description',
  assignees: 'task_assignees',
  dueDate: 'task_due',
  priority: 'task_priority',
  groupId: 'task_group',
  statusId: 'task_status',
  estimate: 'task_estimate',
  milestone: 'task_milestone',
  files: 'task_files',
};

/** action_ids of the form's elements (the project's is the shared ACTION.taskFormProject). */
export const TASK_ACTION: Record<TaskField, string> = {
  project: ACTION.taskFormProject,
  name: 'task_name_input',
  description: 'task_description_input',
  assignees: 'task_assignees_input',
  dueDate: 'task_due_input',
  priority: 'task_priority_input',
  groupId: 'task_group_input',
  statusId: 'task_status_input',
  estimate: 'task_estimate_input',
  milestone: 'task_milestone_input',
  files: 'task_files_input',
};

export const PROJECT_DEPENDENT = new Set<TaskField>([
  'priority',
  'groupId',
  'statusId',
  'estimate',
  'milestone',
]);

/** The block_id of a field in a form rendered for `projectId`. */
export function taskBlockId(field: TaskField, projectId?: string): string {
  return PROJECT_DEPENDENT.has(field) && projectId
    ? `${BLOCK[field]}.${projectId.slice(-8)}`
    : BLOCK[field];
}

/** Fields an edit may change (sent only when changed). */
export const EDITABLE = [
  'name',
  'description',
  'assignees',
  'dueDate',
  'priority',
  'groupId',
  'statusId',
  'estimate',
  'milestone',
] as const satisfies readonly TaskField[];
export type EditableField = (typeof EDITABLE)[number];

export const FIELD_WORDS: Record<EditableField, string> = {
  name: 'name',
  description: 'description',
  assignees: 'assignees',
  dueDate: 'due date',
  priority: 'priority',
  groupId: 'group',
  statusId: 'status',
  estimate: 'estimate',
  milestone: 'milestone',
};

/** What the form holds: prefilled values, or what a submission carried (raw text). */
export interface TaskFormValues {
  projectId?: string;
  name?: string;
  description?: string;
  assignees?: string[];
  dueDate?: string;
  priority?: string;
  groupId?: string;
  statusId?: string;
  estimate?: string;
  milestone?: string;
  /** Slack file ids uploaded through the file input. */
  fileIds?: string[];
}

/** The longest task name the form takes (the service's limit). */
export const TASK_NAME_MAX = 500;

/**
 * What the name field shows: the name, or its first 500 characters. An edit's fingerprint
 * is of what was shown, so a cut name left as it was is not written back.
 */
export function shownTaskName(name: string): string {
  return name.slice(0, TASK_NAME_MAX);
}
