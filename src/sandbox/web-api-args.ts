// Reading a Web API call's arguments the way Slack does: form posts carry strings (complex
// arguments as JSON text), JSON posts carry values; what is wrong is refused with Slack's error
// name (and its `response_metadata.messages`), thrown as an ApiError that web-api.ts answers.

import { validateBlocks, validateView } from './block-validation.js';
import { isObj } from './json-guards.js';
import type { SandboxChannel } from './records.js';
import type { SandboxState } from './state.js';
import type { Args } from './web-api-scripts.js';

/** One Web API method: its arguments in, the fields of an `ok: true` answer out. */
export type MethodHandler = (args: Args) => Record<string, unknown>;

export class ApiError extends Error {
  constructor(
    readonly error: string,
    readonly messages?: string[],
  ) {
    super(error);
  }
}

/** Refuses the call with Slack's error name. */
export function fail(error: string, messages?: string[]): never {
  throw new ApiError(error, messages);
}

export function str(args: Args, key: string): string | undefined {
  const v = args[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export function bool(args: Args, key: string): boolean {
  const v = args[key];
  return v === true || v === 'true' || v === '1' || v === 1;
}

/** Complex arguments arrive as JSON strings in form posts and as objects in JSON posts. */
export function json(args: Args, key: string, badError: string): unknown {
  const v = args[key];
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return fail(badError, [`[ERROR] \`${key}\` is not valid JSON`]);
  }
}

/** A message's text, blocks and attachments, checked as chat.postMessage checks them. */
export function messageContent(args: Args): {
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
} {
  const text = str(args, 'text');
  const blocks = json(args, 'blocks', 'invalid_blocks_format');
  const attachments = json(args, 'attachments', 'invalid_attachments');
  if (blocks !== undefined) {
    const problems = validateBlocks(blocks, 'message');
    if (problems.length > 0) fail('invalid_blocks', problems);
  }
  if (attachments !== undefined && !Array.isArray(attachments)) fail('invalid_attachments');
  const blockList = Array.isArray(blocks) && blocks.length > 0 ? blocks : undefined;
  const attachmentList =
    Array.isArray(attachments) && attachments.length > 0 ? attachments : undefined;
  if ((text === undefined || text.length === 0) && !blockList && !attachmentList) fail('no_text');
  if (text !== undefined && text.length > 40_000) fail('msg_too_long');
  return { text: text ?? '', blocks: blockList, attachments: attachmentList };
}

/** Message metadata as Slack takes it: {event_type, event_payload}, else refused. */
export function metadataArg(args: Args): unknown {
  const m = json(args, 'metadata', 'invalid_metadata_format');
  if (m === undefined) return undefined;
  if (
    !isObj(m) ||
    typeof m.event_type !== 'string' ||
    !/^[A-Za-z0-9_.-]{1,255}$/.test(m.event_type) ||
    !isObj(m.event_payload)
  ) {
    return fail('invalid_metadata_format', [
      '[ERROR] metadata must be an object with an event_type string and an event_payload object',
    ]);
  }
  return { event_type: m.event_type, event_payload: m.event_payload };
}

export function channelArg(s: SandboxState, args: Args, key = 'channel'): SandboxChannel {
  const id = str(args, key);
  const channel = id ? s.channels.get(id) : undefined;
  return channel ?? fail('channel_not_found');
}

/** The `view` argument, checked as Slack checks a modal or a Home tab. */
export function viewArg(args: Args, type: 'modal' | 'home'): Record<string, unknown> {
  const view = json(args, 'view', 'invalid_arguments');
  if (view === undefined) fail('invalid_arguments', ['[ERROR] missing required field: view']);
  const problems = validateView(view, type);
  if (problems.length > 0 || !isObj(view)) return fail('invalid_arguments', problems);
  const externalId = typeof view.external_id === 'string' ? view.external_id : '';
  return { ...view, external_id: externalId };
}
