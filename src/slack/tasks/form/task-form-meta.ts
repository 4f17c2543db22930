/**
 * The task form's private_metadata: where it was opened, what it edits, the fields it shows
 * and the fingerprints of what it was prefilled with — JSON within Slack's 3000 characters,
 * read back with anything malformed left out.
 */
import { z } from 'zod';
import { TaskFileInput } from '../../../workapi/contract.js';
import { carriedText, readCarried } from '../../ui/metadata.js';
import {
  BLOCK,
  EDITABLE,
  type EditableField,
  type TaskField,
  type TaskFormMode,
} from './task-form-fields.js';

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
