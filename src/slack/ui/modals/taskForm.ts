/**
 * The create/edit task modal as PURE functions of data: the view (taskFormModal), its
 * private_metadata (encode/readTaskFormMeta), what a submission holds (readTaskFormValues)
 * and what it asks for (checkTaskForm → the request body, or errors keyed by block_id).
 *
 * Fields follow the chosen project: priority, group, estimate and milestone appear only when
 * the project has the feature on; statuses and groups are the project's own. Their block_ids
 * carry the project (`task_group.a1b2c3d4`), so switching projects resets them in Slack
 * instead of keeping an option that the new project does not have.
 */
import type {
  InputBlock,
  KnownBlock,
  ModalView,
  PlainTextOption,
  StaticSelect,
} from '@slack/types';
import {
  type CreateTaskBody,
  isCalendarDate,
  PRIORITY_NAMES,
  type TaskFileInput,
  type WorkspaceUser,
} from '../../../workapi/contract.js';
import { projectIdProblem } from '../../parse/ids.js';
import { defaultStatus, type ProjectInfo } from '../../tasks/projectInfo.js';
import { cut, esc, listing } from '../../tasks/text.js';
import { ACTION, VIEW } from '../ids.js';

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

const BLOCK: Record<TaskField, string> = {
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

const PROJECT_DEPENDENT = new Set<TaskField>([
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
const EDITABLE = [
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
type EditableField = (typeof EDITABLE)[number];

const FIELD_WORDS: Record<EditableField, string> = {
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
}

// ── Views ────────────────────────────────────────────────────────────────────

const text = (t: string) => ({ type: 'plain_text' as const, text: t });

/** Shown at once with the trigger_id, while the form's data loads. */
export function taskLoadingModal(title = 'New task'): ModalView {
  return {
    type: 'modal',
    callback_id: VIEW.loading,
    title: text(title),
    close: text('Cancel'),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: ':hourglass_flowing_sand: Loading…' } },
    ],
  };
}

/** A modal that only says something (result, refusal) with a Close button. */
export function taskNoticeModal(title: string, body: string): ModalView {
  return {
    type: 'modal',
    title: text(cut(title, 24)),
    close: text('Close'),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: cut(body, 3000) } }],
  };
}

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
    const options = data.projects.slice(0, 100).map((p) => option(p.name, p.id));
    const chosen = options.find((o) => o.value === (values.projectId ?? pid));
    const select: StaticSelect = {
      type: 'static_select',
      action_id: TASK_ACTION.project,
      placeholder: text('Choose a project'),
      options,
      ...(chosen ? { initial_option: chosen } : {}),
    };
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

  input('name', {
    label: text('Name'),
    element: {
      type: 'plain_text_input',
      action_id: TASK_ACTION.name,
      placeholder: text('What needs doing?'),
      max_length: 500,
      ...(values.name ? { initial_value: cut(values.name, 500) } : {}),
    },
  });
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
    const options = [...data.users]
      .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''))
      .slice(0, 100)
      .map(userOption);
    const initial = options.filter((o) => values.assignees?.includes(o.value ?? ''));
    input('assignees', {
      label: text('Assignees'),
      optional: true,
      element: {
        type: 'multi_static_select',
        action_id: TASK_ACTION.assignees,
        placeholder: text('Choose people'),
        options,
        ...(initial.length ? { initial_options: initial } : {}),
      },
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

function userOption(u: WorkspaceUser): PlainTextOption {
  const name = u.name?.trim() || u.email || u.id;
  return option(u.email && u.name ? `${name} (${u.email})` : name, u.id);
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
  let v: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(raw ?? '') as unknown;
    if (parsed && typeof parsed === 'object') v = parsed as Record<string, unknown>;
  } catch {
    // Not ours: an empty context.
  }
  const str = (x: unknown) => (typeof x === 'string' && x ? x : undefined);
  const files = Array.isArray(v.files)
    ? (v.files as TaskFileInput[]).filter(
        (f) =>
          f &&
          typeof f.href === 'string' &&
          typeof f.name === 'string' &&
          typeof f.size === 'string',
      )
    : undefined;
  const orig = v.orig && typeof v.orig === 'object' ? (v.orig as TaskFormMeta['orig']) : undefined;
  const inputs = Array.isArray(v.inputs)
    ? (v.inputs as unknown[]).filter((x): x is TaskField => typeof x === 'string' && x in BLOCK)
    : undefined;
  return {
    mode: v.mode === 'edit' || v.mode === 'create' ? v.mode : fallbackMode,
    channelId: str(v.channelId),
    responseUrl: str(v.responseUrl),
    taskId: str(v.taskId),
    projectId: str(v.projectId),
    inputs,
    files,
    orig,
  };
}

// ── Reading a submission ─────────────────────────────────────────────────────

type StateValue = {
  value?: string | null;
  selected_date?: string | null;
  selected_option?: { value?: string } | null;
  selected_options?: { value?: string }[];
  files?: { id?: string }[];
};
export type StateValues = Record<string, Record<string, StateValue | undefined> | undefined>;

/** The element with `actionId`, wherever its block is (block_ids carry the project). */
function find(state: StateValues, actionId: string): StateValue | undefined {
  for (const block of Object.values(state ?? {})) {
    const v = block?.[actionId];
    if (v) return v;
  }
  return undefined;
}

export function readTaskFormValues(state: StateValues): TaskFormValues {
  const textOf = (f: TaskField) => {
    const v = find(state, TASK_ACTION[f]);
    return v?.value ?? undefined;
  };
  const selected = (f: TaskField) =>
    find(state, TASK_ACTION[f])?.selected_option?.value ?? undefined;
  const project = find(state, TASK_ACTION.project);
  const assignees = find(state, TASK_ACTION.assignees)?.selected_options;
  const files = find(state, TASK_ACTION.files)?.files;
  return {
    projectId:
      (project?.selected_option?.value ?? project?.value ?? undefined)?.trim() || undefined,
    name: textOf('name'),
    description: textOf('description'),
    assignees: assignees?.map((o) => o.value ?? '').filter(Boolean),
    dueDate: find(state, TASK_ACTION.dueDate)?.selected_date ?? undefined,
    priority: selected('priority'),
    groupId: selected('groupId'),
    statusId: selected('statusId'),
    estimate: textOf('estimate'),
    milestone: textOf('milestone'),
    fileIds: files?.map((f) => f.id ?? '').filter(Boolean),
  };
}

// ── Checking a submission ────────────────────────────────────────────────────

export type TaskFormCheck =
  | {
      ok: true;
      body: CreateTaskBody;
      /** Slack files to read (files.info) and add to body.files. */
      fileIds: string[];
      /** edit: the changed fields in words ("due date"); empty when nothing changed. */
      changed: string[];
    }
  | { ok: false; errors: Record<string, string> };

/**
 * What the submission asks for, or the problems Slack should show under the fields
 * (`response_action: 'errors'`). Only fields the form shows are read.
 */
export function checkTaskForm(values: TaskFormValues, meta: TaskFormMeta): TaskFormCheck {
  const errors: Record<string, string> = {};
  const shown = new Set<TaskField>(meta.inputs ?? ['project', 'name', 'description', 'dueDate']);
  const blockOf = (f: TaskField) => errorBlock(f, meta);
  const edit = meta.mode === 'edit';

  // Project.
  const projectId = edit ? meta.projectId : (values.projectId ?? meta.projectId);
  if (!projectId) {
    errors[blockOf('project')] = 'Choose a project.';
  } else if (!edit) {
    const problem = projectIdProblem(projectId);
    if (problem) errors[blockOf('project')] = problem;
    else if (meta.projectId && values.projectId && values.projectId !== meta.projectId) {
      errors[blockOf('project')] =
        'The fields of this project are still loading; wait a moment, then submit again.';
    }
  }

  const name = (values.name ?? '').trim();
  if (!name) errors[blockOf('name')] = 'Give the task a name.';
  else if (name.length > 500) errors[blockOf('name')] = 'The name can have at most 500 characters.';

  const description = (values.description ?? '').replace(/\r\n/g, '\n').trim();
  if (description.length > 20_000) {
    errors[blockOf('description')] = 'The description can have at most 20,000 characters.';
  }

  const due = values.dueDate?.trim() || undefined;
  if (due && !isCalendarDate(due)) errors[blockOf('dueDate')] = 'Pick a date on the calendar.';

  const priority = values.priority === undefined ? undefined : Number(values.priority);
  if (
    shown.has('priority') &&
    priority !== undefined &&
    !(Number.isInteger(priority) && priority >= 0 && priority <= 4)
  ) {
    errors[blockOf('priority')] = 'Choose a priority from the list.';
  }

  const estimate = wholeNumber(values.estimate, 'estimate');
  if (shown.has('estimate') && estimate.error) errors[blockOf('estimate')] = estimate.error;
  const milestone = wholeNumber(values.milestone, 'milestone');
  if (shown.has('milestone') && milestone.error) errors[blockOf('milestone')] = milestone.error;

  const assignees = [...new Set(values.assignees ?? [])];
  if (assignees.length > 100) errors[blockOf('assignees')] = 'Choose at most 100 people.';

  // The service cannot remove a due date, group, estimate or milestone (partial update).
  if (edit) {
    const cleared = (f: EditableField, value: string | undefined, words: string) => {
      const before = meta.orig?.[f];
      if (shown.has(f) && !value && before !== undefined && before !== fingerprint('')) {
        errors[blockOf(f)] =
          `The service cannot remove a task’s ${words}; choose another one or keep it.`;
      }
    };
    cleared('dueDate', due, 'due date');
    cleared('groupId', values.groupId, 'group');
    cleared('estimate', values.estimate?.trim(), 'estimate');
    cleared('milestone', values.milestone?.trim(), 'milestone');
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const all: CreateTaskBody = { projectId: projectId as string, name };
  if (shown.has('description') && (description || edit)) all.description = description;
  if (shown.has('assignees') && (assignees.length || edit)) all.taskUsers = assignees;
  if (due) all.dueDate = due;
  if (shown.has('priority') && priority !== undefined) all.priority = priority;
  if (shown.has('groupId') && values.groupId) all.groupId = values.groupId;
  if (shown.has('statusId') && values.statusId) all.statusId = values.statusId;
  if (shown.has('estimate') && estimate.value !== undefined) all.estimateTime = estimate.value;
  if (shown.has('milestone') && milestone.value !== undefined) all.milestoneId = milestone.value;

  if (!edit) {
    const fileIds = shown.has('files') ? [...new Set(values.fileIds ?? [])] : [];
    if (meta.files?.length) all.files = [...meta.files];
    return { ok: true, body: all, fileIds, changed: [] };
  }

  // Edit: only what differs from the prefilled values.
  const now = editFingerprints(values);
  const body: CreateTaskBody = { projectId: all.projectId };
  const changed: string[] = [];
  const keys: Record<EditableField, keyof CreateTaskBody> = {
    name: 'name',
    description: 'description',
    assignees: 'taskUsers',
    dueDate: 'dueDate',
    priority: 'priority',
    groupId: 'groupId',
    statusId: 'statusId',
    estimate: 'estimateTime',
    milestone: 'milestoneId',
  };
  for (const f of EDITABLE) {
    if (f !== 'name' && !shown.has(f)) continue;
    const key = keys[f];
    if (now[f] === meta.orig?.[f] || all[key] === undefined) continue;
    (body as Record<string, unknown>)[key] = all[key];
    changed.push(FIELD_WORDS[f]);
  }
  return { ok: true, body, fileIds: [], changed };
}

/** The block to show a problem with `field` under: the field's own if shown, else the name. */
export function errorBlock(field: TaskField, meta: TaskFormMeta): string {
  const shown = meta.inputs ?? ['project', 'name', 'description', 'dueDate'];
  const target = shown.includes(field) ? field : 'name';
  return taskBlockId(target, meta.projectId);
}

/** The service's field names (as in its 400 "field: problem") → the form's fields. */
const SERVICE_FIELD: Record<string, TaskField> = {
  projectId: 'project',
  name: 'name',
  description: 'description',
  taskUsers: 'assignees',
  dueDate: 'dueDate',
  priority: 'priority',
  groupId: 'groupId',
  statusId: 'statusId',
  estimateTime: 'estimate',
  milestoneId: 'milestone',
  files: 'files',
};

/** "dueDate: is not a date" → the dueDate block; unknown fields → the name block. */
export function blockForServiceError(message: string, meta: TaskFormMeta): string {
  const head = /^([A-Za-z]+)[\w.[\]]*\s*:/.exec(message.trim())?.[1] ?? '';
  return errorBlock(SERVICE_FIELD[head] ?? 'name', meta);
}

function wholeNumber(
  raw: string | undefined,
  what: 'estimate' | 'milestone',
): { value?: number; error?: string } {
  const t = (raw ?? '').trim();
  if (!t) return {};
  const example =
    what === 'estimate' ? 'Enter whole hours, like 4.' : 'Enter a whole number, like 2.';
  if (!/^-?\d+$/.test(t)) return { error: `“${cut(t, 20)}” is not a whole number. ${example}` };
  const n = Number(t);
  if (n < 0) return { error: `The ${what} cannot be negative. ${example}` };
  if (n > 1_000_000) return { error: `That ${what} is too large.` };
  return { value: n };
}

// ── Edit fingerprints ────────────────────────────────────────────────────────

/** FNV-1a, 32 bits: a short, stable fingerprint of a value (not a secret). */
export function fingerprint(value: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** Fingerprints of the editable fields, compared at submit to find what changed. */
export function editFingerprints(v: TaskFormValues): Record<EditableField, string> {
  const norm: Record<EditableField, string> = {
    name: (v.name ?? '').trim(),
    description: (v.description ?? '').replace(/\r\n/g, '\n').trim(),
    assignees: [...new Set(v.assignees ?? [])].sort().join(','),
    dueDate: (v.dueDate ?? '').trim(),
    priority: (v.priority ?? '').trim(),
    groupId: v.groupId ?? '',
    statusId: v.statusId ?? '',
    estimate: (v.estimate ?? '').trim().replace(/^0+(?=\d)/, ''),
    milestone: (v.milestone ?? '').trim().replace(/^0+(?=\d)/, ''),
  };
  const out = {} as Record<EditableField, string>;
  for (const f of EDITABLE) out[f] = fingerprint(norm[f]);
  return out;
}

/** The entered values as readable lines (sent by DM when a save fails after the modal). */
export function describeEnteredValues(
  values: TaskFormValues,
  names: { users?: WorkspaceUser[]; project?: ProjectInfo } = {},
): string {
  const user = (id: string) => names.users?.find((u) => u.id === id)?.name ?? id;
  const lines: string[] = [];
  const add = (label: string, v: string | undefined) => {
    if (v?.trim()) lines.push(`*${label}:* ${esc(v.trim())}`);
  };
  add('Name', values.name);
  add('Project', names.project?.name ?? values.projectId);
  add('Description', values.description);
  add('Assignees', values.assignees?.map(user).join(', '));
  add('Due date', values.dueDate);
  if (values.priority !== undefined) add('Priority', PRIORITY_NAMES[Number(values.priority)]);
  add(
    'Group',
    names.project?.groups.find((g) => g.groupId === values.groupId)?.groupName ?? values.groupId,
  );
  add(
    'Status',
    names.project?.statuses.find((s) => s._id === values.statusId)?.Name ?? values.statusId,
  );
  add('Estimate (hours)', values.estimate);
  add('Milestone', values.milestone);
  if (values.fileIds?.length) add('Files', `${values.fileIds.length} uploaded file(s)`);
  return lines.join('\n');
}

/** The initial values of a create form for `project` (its defaults). */
export function createDefaults(project: ProjectInfo | undefined): TaskFormValues {
  if (!project) return {};
  return {
    priority: project.priorityEnabled ? String(project.defaultPriority) : undefined,
    statusId: defaultStatus(project.statuses)?._id,
  };
}
