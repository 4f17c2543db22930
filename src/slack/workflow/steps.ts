/**
 * Worklink's Workflow Builder custom steps: their callback ids and the names of their inputs
 * and outputs, exactly as manifest.yml's `functions` declares them (a test checks both agree).
 * See docs/workflow-steps.md.
 */

export const STEP = {
  createTask: 'create_task',
  addComment: 'add_comment',
  completeTask: 'complete_task',
  reopenTask: 'reopen_task',
  findTask: 'find_task',
} as const;
export type StepId = (typeof STEP)[keyof typeof STEP];

/** Each step's title (as in the manifest), for messages that name the step. */
export const STEP_TITLE: Record<StepId, string> = {
  create_task: 'Create a task',
  add_comment: 'Add a comment',
  complete_task: 'Complete a task',
  reopen_task: 'Reopen a task',
  find_task: 'Find a task',
};

/** Input names per step. */
export const STEP_INPUTS = {
  create_task: [
    'project',
    'title',
    'description',
    'assignees',
    'due_date',
    'priority',
    'group',
    'run_by',
  ],
  add_comment: ['task', 'text', 'author'],
  complete_task: ['task', 'run_by'],
  reopen_task: ['task', 'run_by'],
  find_task: ['words', 'project', 'run_by'],
} as const satisfies Record<StepId, readonly string[]>;

/** Output names per step. */
export const STEP_OUTPUTS = {
  create_task: ['task_id', 'task_number', 'task_reference', 'task_url', 'task_name'],
  add_comment: ['comment_id', 'task_id'],
  complete_task: ['status', 'task_id'],
  reopen_task: ['status', 'task_id'],
  find_task: [
    'found',
    'task_id',
    'task_number',
    'task_reference',
    'task_url',
    'task_name',
    'status',
    'assignees',
  ],
} as const satisfies Record<StepId, readonly string[]>;

export type StepOutputs<S extends StepId> = Partial<
  Record<(typeof STEP_OUTPUTS)[S][number], string | boolean | string[]>
>;
