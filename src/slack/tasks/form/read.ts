/**
 * A submitted task form: what it holds (readTaskFormValues), what it asks the service for
 * (checkTaskForm → the request body, or errors keyed by block_id), where a service error
 * belongs (blockForServiceError), what changed in an edit (fingerprints) and the entered
 * values in words for when a save fails after the modal closed.
 */

import {
  type CreateTaskBody,
  isCalendarDate,
  PRIORITY_NAMES,
  type WorkspaceUser,
} from '../../../workapi/contract.js';
import { cut, esc } from '../../format/text.js';
import { projectIdProblem } from '../../parse/service-id.js';
import type { StateValue, StateValues } from '../../ui/state-values.js';
import type { ProjectInfo } from '../project-info.js';
import {
  EDITABLE,
  type EditableField,
  FIELD_WORDS,
  TASK_ACTION,
  type TaskField,
  type TaskFormValues,
  taskBlockId,
} from './task-form-fields.js';
import type { TaskFormMeta } from './task-form-meta.js';

// ── Reading a submission ─────────────────────────────────────────────────────

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

  if (Object.keys(errors).length > 0 || !projectId) return { ok: false, errors };

  const all: CreateTaskBody = { projectId, name };
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
    copyField(all, body, key);
    changed.push(FIELD_WORDS[f]);
  }
  return { ok: true, body, fileIds: [], changed };
}

function copyField<K extends keyof CreateTaskBody>(
  from: CreateTaskBody,
  to: CreateTaskBody,
  key: K,
): void {
  to[key] = from[key];
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
  const out = { ...norm };
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
