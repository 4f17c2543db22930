/**
 * The create/edit task modal as PURE functions of data: the view (taskFormModal) and its
 * private_metadata (encode/readTaskFormMeta). Reading and checking a submission is in
 * read.ts.
 *
 * Fields follow the chosen project: priority, group, estimate and milestone appear only when
 * the project has the feature on; statuses and groups are the project's own. Their block_ids
 * carry the project (`task_group.a1b2c3d4`), so switching projects resets them in Slack
 * instead of keeping an option that the new project does not have.
 */

import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  isCalendarDate,
  PRIORITY_NAMES,
  TaskFileInput,
  type WorkspaceUser,
} from '../../../workapi/contract.js';
import { cut, esc, listing } from '../../format/text.js';
import { ACTION, VIEW } from '../../ui/block-ids.js';
import { carriedText, readCarried } from '../../ui/metadata.js';
import { defaultStatus, type ProjectInfo } from '../project-info.js';
import { assigneeElement } from './assignee-picker.js';
import { projectElement } from './project-picker.js';

// ── Ids ──────────────────────────────────────────────────────────────────────

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

// ── Data ─────────────────────────────────────────────────────────────────────

/** Carried in private_metadata (JSON, at most 3000 characters). */
export interface TaskFormMeta {
  mode: TaskFormMode;
  /** Where the form was opened from: replies go there. */
  channelId?: string;
  responseUrl?: string;
  /** edit: the task. */
  taskId?: string;
  /** The project the form's fields were rendered for. */
  projectId?: string;
  /** The input fields the form shows (errors can only be keyed to these). */
  inputs?: TaskField[];
  /** Files attached from a message (create from message), sent with the task. */
  files?: TaskFileInput[];
  /** edit: fingerprints of the prefilled values, to send only what changed. */
  orig?: Partial<Record<EditableField, string>>;
  /** create from a message: the message, whose thread is answered once the task exists. */
  source?: { channel: string; ts: string };
}

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

export interface TaskFormData {
  meta: TaskFormMeta;
  values: TaskFormValues;
  /** Projects known to this Slack workspace (create): the project menu. */
  projects: { id: string; name: string }[];
  /** The chosen project's details, when loaded. */
  project?: ProjectInfo;
  /** Why the chosen project's fields are missing ("Project x was not found"). */
  projectProblem?: string;
  users: WorkspaceUser[];
  /** A problem to show at the top (e.g. a failed save, with the values kept). */
  banner?: string;
  /** edit: the status could not be told from the task (get task has no status id). */
  statusUnknown?: boolean;
  /** create: "Already there?" — open tasks of the project with similar names. */
  similarHint?: KnownBlock;
}

// ── Views ────────────────────────────────────────────────────────────────────

/** The longest task name the form takes (the service's limit). */
export const TASK_NAME_MAX = 500;

/**
 * What the name field shows: the name, or its first 500 characters. An edit's fingerprint
 * is of what was shown, so a cut name left as it was is not written back.
 */
export function shownTaskName(name: string): string {
  return name.slice(0, TASK_NAME_MAX);
}

const text = (t: string) => ({ type: 'plain_text' as const, text: t });

export function taskFormModal(data: TaskFormData): ModalView {
  const { meta, values, project } = data;
  const edit = meta.mode === 'edit';
  const blocks: KnownBlock[] = [];
  const inputs: TaskField[] = [];
  const pid = project?.id;
  const input = (field: TaskField, block: Omit<InputBlock, 'type' | 'block_id'>) => {
    inputs.push(field);
    blocks.push({ type: 'input', block_id: taskBlockId(field, pid), ...block });
  };

  if (data.banner) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`:warning: ${data.banner}`, 3000) },
    });
  }

  // Project: a menu of known projects, or an id field when none is known yet.
  if (edit) {
    const name = project?.name ?? meta.projectId ?? 'unknown project';
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `Project: *${esc(name)}*` }],
    });
  } else if (data.projects.length > 0) {
    // Type-ahead over the projects Worklink knows (project-picker.ts): no 100-option cap.
    const chosenId = values.projectId ?? pid;
    const chosen = chosenId
      ? {
          id: chosenId,
          name:
            data.projects.find((p) => p.id === chosenId)?.name ??
            (project?.id === chosenId ? project.name : chosenId),
        }
      : undefined;
    const select = projectElement(TASK_ACTION.project, chosen);
    input('project', { label: text('Project'), dispatch_action: true, element: select });
  } else {
    input('project', {
      label: text('Project id'),
      dispatch_action: true,
      element: {
        type: 'plain_text_input',
        action_id: TASK_ACTION.project,
        placeholder: text('Paste a project id'),
        max_length: 100,
        dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] },
        ...(values.projectId ? { initial_value: values.projectId } : {}),
      },
      hint: text(
        'No project is known here yet. Paste a project id (press Enter to load its fields), or link one to a channel with /work project link <projectId>.',
      ),
    });
  }
  if (data.projectProblem) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: cut(`:warning: ${data.projectProblem}`, 3000) }],
    });
  }

  const nameCut = edit && (values.name?.length ?? 0) > TASK_NAME_MAX;
  input('name', {
    label: text('Name'),
    ...(nameCut
      ? {
          hint: text(
            `The name is longer than this field (${TASK_NAME_MAX} characters), so it shows the start. Leave it as it is to keep the whole name.`,
          ),
        }
      : {}),
    // A new task's title is looked up as it is typed (form/similar.ts: "Already there?").
    ...(edit ? {} : { dispatch_action: true }),
    element: {
      type: 'plain_text_input',
      action_id: TASK_ACTION.name,
      placeholder: text('What needs doing?'),
      max_length: TASK_NAME_MAX,
      ...(edit ? {} : { dispatch_action_config: { trigger_actions_on: ['on_character_entered'] } }),
      ...(values.name ? { initial_value: shownTaskName(values.name) } : {}),
    },
  });
  if (data.similarHint) blocks.push(data.similarHint);
  // Slack's text inputs hold 3000 characters: a longer description cannot be edited here
  // without cutting it, so an edit leaves it alone and says so.
  const longDescription = edit && (values.description?.length ?? 0) > 3000;
  if (longDescription) {
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: 'The description is longer than a Slack form can hold (3,000 characters), so it is kept as it is.',
        },
      ],
    });
  } else {
    input('description', {
      label: text('Description'),
      optional: true,
      element: {
        type: 'plain_text_input',
        action_id: TASK_ACTION.description,
        multiline: true,
        max_length: 3000,
        ...(values.description ? { initial_value: cut(values.description, 3000) } : {}),
      },
    });
  }

  if (data.users.length > 0) {
    input('assignees', {
      label: text('Assignees'),
      optional: true,
      // Type-ahead over the service's users (assignee-picker.ts): no 100-person cap.
      element: assigneeElement(TASK_ACTION.assignees, data.users, values.assignees),
    });
  }

  input('dueDate', {
    label: text('Due date'),
    optional: true,
    element: {
      type: 'datepicker',
      action_id: TASK_ACTION.dueDate,
      placeholder: text('No due date'),
      ...(values.dueDate && isCalendarDate(values.dueDate) ? { initial_date: values.dueDate } : {}),
    },
  });

  if (project?.priorityEnabled) {
    const options = PRIORITY_NAMES.map((n, i) => option(n, String(i)));
    const initial = options.find((o) => o.value === values.priority);
    input('priority', {
      label: text('Priority'),
      element: {
        type: 'static_select',
        action_id: TASK_ACTION.priority,
        options,
        ...(initial ? { initial_option: initial } : {}),
      },
    });
  }
  if (project?.groupsEnabled && project.groups.length > 0) {
    const options = project.groups
      .slice(0, 100)
      .map((g) => option(g.groupName ?? g.groupId, g.groupId));
    const initial = options.find((o) => o.value === values.groupId);
    input('groupId', {
      label: text('Group'),
      optional: true,
      element: {
        type: 'static_select',
        action_id: TASK_ACTION.groupId,
        placeholder: text('No group'),
        options,
        ...(initial ? { initial_option: initial } : {}),
      },
    });
  }
  if (project && project.statuses.length > 0) {
    const options = project.statuses.slice(0, 100).map((s) => option(s.Name ?? s._id, s._id));
    const initial = options.find((o) => o.value === values.statusId);
    input('statusId', {
      label: text('Status'),
      // An edit whose current status is unknown may leave it alone.
      optional: edit,
      element: {
        type: 'static_select',
        action_id: TASK_ACTION.statusId,
        placeholder: text(edit ? 'Keep the current status' : 'Choose a status'),
        options,
        ...(initial ? { initial_option: initial } : {}),
      },
      ...(edit && data.statusUnknown
        ? {
            hint: text(
              'The service does not say which status the task has; pick one to change it.',
            ),
          }
        : {}),
    });
  }
  if (project?.estimateEnabled) {
    input('estimate', {
      label: text('Estimate (hours)'),
      optional: true,
      element: {
        type: 'number_input',
        action_id: TASK_ACTION.estimate,
        is_decimal_allowed: false,
        min_value: '0',
        ...(values.estimate ? { initial_value: values.estimate } : {}),
      },
    });
  }
  if (project?.milestoneEnabled) {
    input('milestone', {
      label: text('Milestone'),
      optional: true,
      element: {
        type: 'number_input',
        action_id: TASK_ACTION.milestone,
        is_decimal_allowed: false,
        min_value: '0',
        ...(values.milestone ? { initial_value: values.milestone } : {}),
      },
    });
  }
  // Files replace a task's whole file list on update, which get task cannot show: create only.
  if (!edit) {
    input('files', {
      label: text('Files'),
      optional: true,
      element: { type: 'file_input', action_id: TASK_ACTION.files, max_files: 10 },
    });
  }
  if (meta.files?.length) {
    const names = meta.files.map((f) => esc(f.name));
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: cut(`:paperclip: Attached from the message: ${listing(names)}`, 3000),
        },
      ],
    });
  }

  return {
    type: 'modal',
    callback_id: edit ? VIEW.taskEdit : VIEW.taskCreate,
    private_metadata: encodeTaskFormMeta({ ...meta, projectId: pid ?? meta.projectId, inputs }),
    title: text(edit ? 'Edit task' : 'New task'),
    submit: text(edit ? 'Save' : 'Create'),
    close: text('Cancel'),
    blocks,
  };
}

function option(label: string, value: string): PlainTextOption {
  return { text: text(cut(label.trim() || value, 75)), value };
}

// ── Metadata ─────────────────────────────────────────────────────────────────

const META_LIMIT = 3000;

/** JSON within Slack's 3000 characters: attached files are dropped first when too long. */
export function encodeTaskFormMeta(meta: TaskFormMeta): string {
  let json = JSON.stringify(meta);
  const files = [...(meta.files ?? [])];
  while (json.length > META_LIMIT && files.length > 0) {
    files.pop();
    json = JSON.stringify({ ...meta, files });
  }
  if (json.length > META_LIMIT)
    json = JSON.stringify({ ...meta, files: [], responseUrl: undefined });
  return json;
}

/** private_metadata back; anything malformed is left out. */
export function readTaskFormMeta(
  raw: string | undefined,
  fallbackMode: TaskFormMode,
): TaskFormMeta {
  const v = readCarried(raw, TaskFormMetaSchema) ?? {};
  return { ...v, mode: v.mode ?? fallbackMode };
}

const isTaskField = (x: unknown): x is TaskField => typeof x === 'string' && x in BLOCK;
const isFile = (x: unknown): x is TaskFileInput => TaskFileInput.safeParse(x).success;
const TaskFormMetaSchema = z.object({
  mode: z.enum(['create', 'edit']).optional().catch(undefined),
  channelId: carriedText,
  responseUrl: carriedText,
  taskId: carriedText,
  projectId: carriedText,
  inputs: z
    .array(z.unknown())
    .transform((list) => list.filter(isTaskField))
    .optional()
    .catch(undefined),
  files: z
    .array(z.unknown())
    .transform((list) => list.filter(isFile))
    .optional()
    .catch(undefined),
  orig: z.partialRecord(z.enum(EDITABLE), z.string()).optional().catch(undefined),
  source: z
    .object({ channel: z.string().min(1), ts: z.string().min(1) })
    .optional()
    .catch(undefined),
});

/** The initial values of a create form for `project` (its defaults). */
export function createDefaults(project: ProjectInfo | undefined): TaskFormValues {
  if (!project) return {};
  return {
    priority: project.priorityEnabled ? String(project.defaultPriority) : undefined,
    statusId: defaultStatus(project.statuses)?._id,
  };
}
