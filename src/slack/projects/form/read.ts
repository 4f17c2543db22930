/**
 * Reading the project create and edit modals: what was typed → a request body, or the
 * problems keyed by block_id for `response_action: 'errors'`. The edit form sends only the
 * fields that changed, compared with a snapshot taken when the form was opened (carried in
 * private_metadata, so the comparison does not depend on anything changing meanwhile).
 */

import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  CreateProjectBody,
  describeIssue,
  PRIORITY_NAMES,
  type PriorityName,
  type Project,
  type ProjectDetails,
  UpdateProjectBody,
} from '../../../workapi/contract.js';
import { calendarDate } from '../../format/date-text.js';
import { priorityName } from '../../shared/names.js';
import { carriedText, ReplyPlace, readCarried } from '../../ui/metadata.js';
import type { StateValues } from '../../ui/state-values.js';
import { FEATURE, LINK_CHANNEL_VALUE, PROJECT_BLOCK, PROJECT_INPUT, shownName } from './fields.js';

/** Where the form was opened from, so results are reported there. */
export interface ProjectFormMeta {
  channelId?: string;
  responseUrl?: string;
}

/** The editable fields as they were when the edit form opened. */
export interface ProjectSnapshot {
  name: string;
  customerId?: string;
  startDate?: string;
  dueDate?: string;
  /** SHA-256 prefix of the description (the text itself may not fit in private_metadata). */
  descriptionHash: string;
  /** False when the description is too long to edit in Slack (the field is left out). */
  descriptionEditable: boolean;
  priority: boolean;
  estimate: boolean;
  milestone: boolean;
  defaultPriority?: PriorityName;
}

export interface EditMeta extends ProjectFormMeta {
  projectId: string;
  original: ProjectSnapshot;
}

/** Slack's plain_text_input holds at most 3000 characters. */
export const SLACK_TEXT_LIMIT = 3000;

export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export function snapshotOf(project: Project, details: ProjectDetails): ProjectSnapshot {
  const description = project.description ?? details.Description ?? '';
  return {
    name: project.projectName ?? details.Name ?? '',
    customerId: (project.customerId ?? details.CustomerId) || undefined,
    startDate: calendarDate(project.startDate ?? details.StartDate),
    dueDate: calendarDate(project.dueDate),
    descriptionHash: hashText(description),
    descriptionEditable: description.length <= SLACK_TEXT_LIMIT,
    priority: details.Priority?.Enabled ?? false,
    estimate: details.IsEstimate ?? false,
    milestone: details.IsMilestone ?? false,
    defaultPriority: priorityName(details.Priority?.Default),
  };
}

export function readFormMeta(privateMetadata: string | undefined): ProjectFormMeta {
  return readCarried(privateMetadata, ReplyPlace) ?? {};
}

/** The edit form's metadata as encoded by open.ts; its flags read as false when missing. */
const EditMetaSchema = ReplyPlace.extend({
  projectId: z.string(),
  original: z.object({
    name: z.string(),
    customerId: carriedText,
    startDate: carriedText,
    dueDate: carriedText,
    descriptionHash: z.string(),
    descriptionEditable: z.boolean().catch(false),
    priority: z.boolean().catch(false),
    estimate: z.boolean().catch(false),
    milestone: z.boolean().catch(false),
    defaultPriority: z.enum(PRIORITY_NAMES).optional().catch(undefined),
  }),
});

/** The edit form's metadata, or undefined when it is not one (junk, a stale shape). */
export function readEditMeta(privateMetadata: string | undefined): EditMeta | undefined {
  return readCarried(privateMetadata, EditMetaSchema);
}

// ── Reading values ────────────────────────────────────────────────────────────

type Block = keyof typeof PROJECT_BLOCK;
const state = (values: StateValues, block: Block) =>
  values[PROJECT_BLOCK[block]]?.[PROJECT_INPUT[block]];
const text = (values: StateValues, block: Block) => state(values, block)?.value ?? undefined;
const date = (values: StateValues, block: Block) =>
  state(values, block)?.selected_date || undefined;
const selected = (values: StateValues, block: Block) =>
  state(values, block)?.selected_option?.value || undefined;

/** Block ids with a problem each. */
export type FormErrors = Record<string, string>;

export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: FormErrors };

export interface CreateForm {
  body: CreateProjectBody;
  /** "Use as this channel's project" was ticked. */
  linkChannel: boolean;
}

export function readCreateForm(values: StateValues): FormResult<CreateForm> {
  const errors: FormErrors = {};
  const projectName = (text(values, 'name') ?? '').trim();
  if (!projectName) errors[PROJECT_BLOCK.name] = 'Give the project a name.';
  const startDate = date(values, 'start');
  const dueDate = date(values, 'due');
  if (startDate && dueDate && dueDate < startDate) {
    errors[PROJECT_BLOCK.due] = 'The due date must not be before the start date.';
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const body: CreateProjectBody = { projectName };
  const customerId = selected(values, 'customer');
  const templateId = selected(values, 'template');
  if (customerId) body.customerId = customerId;
  if (startDate) body.startDate = startDate;
  if (dueDate) body.dueDate = dueDate;
  if (templateId) body.templateId = templateId;
  const checked = CreateProjectBody.safeParse(body);
  if (!checked.success) return { ok: false, errors: errorsFor(describeIssue(checked.error)) };
  const link = state(values, 'linkChannel')?.selected_options ?? [];
  return {
    ok: true,
    value: { body, linkChannel: link.some((o) => o.value === LINK_CHANNEL_VALUE) },
  };
}

export interface EditForm {
  /** Only the fields that changed. */
  body: UpdateProjectBody;
  /** Readable names of the changes: "name", "estimates on", "default priority High". */
  changes: string[];
}

/**
 * The changed fields. A field missing from the state (a cleared picker, a description too
 * long to edit) keeps its value: the service cannot remove a customer or a date.
 */
export function readEditForm(values: StateValues, original: ProjectSnapshot): FormResult<EditForm> {
  const errors: FormErrors = {};
  const body: UpdateProjectBody = {};
  const changes: string[] = [];

  const name = text(values, 'name');
  if (name !== undefined) {
    const trimmed = name.trim();
    if (!trimmed) errors[PROJECT_BLOCK.name] = 'A project needs a name.';
    // A name longer than the field showed its start: left as shown, it is kept whole.
    else if (trimmed !== original.name && trimmed !== shownName(original.name).trim()) {
      body.projectName = trimmed;
      changes.push('name');
    }
  }
  const customerId = selected(values, 'customer');
  if (customerId && customerId !== original.customerId) {
    body.customerId = customerId;
    changes.push('customer');
  }
  const startDate = date(values, 'start');
  const dueDate = date(values, 'due');
  if (startDate && startDate !== original.startDate) {
    body.startDate = startDate;
    changes.push('start date');
  }
  if (dueDate && dueDate !== original.dueDate) {
    body.dueDate = dueDate;
    changes.push('due date');
  }
  // The order rule holds for the dates the project will have, not just the ones sent.
  const start = startDate ?? original.startDate;
  const due = dueDate ?? original.dueDate;
  if (start && due && due < start) {
    if (body.dueDate || !body.startDate) {
      errors[PROJECT_BLOCK.due] = `The due date must not be before the start date (${start}).`;
    } else {
      errors[PROJECT_BLOCK.start] = `The start date must not be after the due date (${due}).`;
    }
  }
  const description = text(values, 'description');
  if (
    original.descriptionEditable &&
    state(values, 'description') !== undefined &&
    hashText(description ?? '') !== original.descriptionHash
  ) {
    body.description = description ?? '';
    changes.push('description');
  }
  const features = state(values, 'features');
  if (features !== undefined) {
    const on = new Set((features.selected_options ?? []).map((o) => o.value));
    for (const [key, label] of [
      ['priority', 'priority'],
      ['estimate', 'estimates'],
      ['milestone', 'milestones'],
    ] as const) {
      const now = on.has(FEATURE[key]);
      if (now !== original[key]) {
        body[key] = now;
        changes.push(`${label} ${now ? 'on' : 'off'}`);
      }
    }
  }
  const defaultPriority = selected(values, 'defaultPriority');
  if (defaultPriority && defaultPriority !== original.defaultPriority) {
    const known = PRIORITY_NAMES.find((p) => p === defaultPriority);
    if (!known) {
      errors[PROJECT_BLOCK.defaultPriority] = `Choose one of ${PRIORITY_NAMES.join(', ')}.`;
    } else {
      body.defaultPriority = known;
      changes.push(`default priority ${defaultPriority}`);
    }
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const checked = UpdateProjectBody.safeParse(body);
  if (!checked.success) return { ok: false, errors: errorsFor(describeIssue(checked.error)) };
  return { ok: true, value: { body, changes } };
}

// ── Service messages under the right field ──────────────────────────────────

const FIELD_BLOCKS: Record<string, string> = {
  projectName: PROJECT_BLOCK.name,
  customerId: PROJECT_BLOCK.customer,
  startDate: PROJECT_BLOCK.start,
  dueDate: PROJECT_BLOCK.due,
  templateId: PROJECT_BLOCK.template,
  description: PROJECT_BLOCK.description,
  priority: PROJECT_BLOCK.features,
  estimate: PROJECT_BLOCK.features,
  milestone: PROJECT_BLOCK.features,
  defaultPriority: PROJECT_BLOCK.defaultPriority,
};

/**
 * `message` ("dueDate: must not be before startDate") shown verbatim under the field it
 * names; under the name field when it names none (or a field the form does not show).
 */
export function errorsFor(message: string, shownBlocks?: readonly string[]): FormErrors {
  const field = /^([A-Za-z]+)\s*:/.exec(message)?.[1];
  let block = (field && FIELD_BLOCKS[field]) || PROJECT_BLOCK.name;
  // Slack refuses errors for a block the view does not have (an empty list: not known).
  if (shownBlocks?.length && !shownBlocks.includes(block)) block = PROJECT_BLOCK.name;
  return { [block]: message.slice(0, 300) };
}
