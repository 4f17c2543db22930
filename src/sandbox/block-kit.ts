// Block Kit as the sandbox sees it: the element kinds that matter, Slack's generated ids, and the
// small lookups the rest of the sandbox shares. The shapes (loose: the app may send anything;
// block-validation.ts checks what Slack checks) are in page/types.d.ts, shared with the page.

import { randomBytes } from 'node:crypto';
import type { BlockObj, ElementObj, OptionObj, TextObj } from './page/types.js';

// The Block Kit shapes are shared with the page's type check (page/types.d.ts), so the server
// and the page read the same objects the same way.
export type {
  BlockObj,
  ConfirmObj,
  ElementObj,
  OptionGroup,
  OptionObj,
  TextObj,
} from './page/types.js';

export type Surface = 'message' | 'modal' | 'home';

export const BLOCK_TYPES = new Set([
  'section',
  'divider',
  'image',
  'actions',
  'context',
  'input',
  'header',
  'rich_text',
  'markdown',
  'file',
  'video',
]);

/** Elements that hold a value Slack reports in `state.values`. */
export const STATEFUL_TYPES = new Set([
  'plain_text_input',
  'number_input',
  'email_text_input',
  'url_text_input',
  'rich_text_input',
  'datepicker',
  'timepicker',
  'datetimepicker',
  'static_select',
  'multi_static_select',
  'external_select',
  'multi_external_select',
  'users_select',
  'multi_users_select',
  'conversations_select',
  'multi_conversations_select',
  'channels_select',
  'multi_channels_select',
  'checkboxes',
  'radio_buttons',
  'file_input',
]);

export const INTERACTIVE_TYPES = new Set([
  ...STATEFUL_TYPES,
  'button',
  'overflow',
  'workflow_button',
]);

function shortId(): string {
  // Slack fills missing block_id/action_id with short random strings such as "Xb3Kq".
  return randomBytes(4).toString('base64url').slice(0, 5);
}

/** A block as the sandbox reads it: an object with a type (validateBlocks checked the rest). */
function isBlockObj(v: unknown): v is BlockObj {
  return typeof v === 'object' && v !== null && 'type' in v && typeof v.type === 'string';
}

/** Copies blocks and fills in the block_id/action_id Slack would generate when the app left them out. */
export function normalizeBlocks(blocks: unknown[]): BlockObj[] {
  const copy = structuredClone(blocks).filter(isBlockObj);
  for (const b of copy) {
    if (b.block_id === undefined) b.block_id = shortId();
    const elements = [b.accessory, b.element, ...(b.type === 'actions' ? (b.elements ?? []) : [])];
    for (const e of elements) {
      if (e && INTERACTIVE_TYPES.has(e.type) && e.action_id === undefined) e.action_id = shortId();
    }
  }
  return copy;
}

export interface StatefulElement {
  block: BlockObj;
  element: ElementObj;
  blockId: string;
  actionId: string;
  /** true for an input block's element (only those can be required). */
  inInput: boolean;
}

export function statefulElements(blocks: BlockObj[]): StatefulElement[] {
  const out: StatefulElement[] = [];
  for (const block of blocks) {
    const candidates: [ElementObj | undefined, boolean][] = [
      [block.element, block.type === 'input'],
      [block.accessory, false],
      ...(block.type === 'actions'
        ? (block.elements ?? []).map((e): [ElementObj, boolean] => [e, false])
        : []),
    ];
    for (const [element, inInput] of candidates) {
      if (!element || !STATEFUL_TYPES.has(element.type)) continue;
      out.push({
        block,
        element,
        blockId: block.block_id ?? '',
        actionId: element.action_id ?? '',
        inInput,
      });
    }
  }
  return out;
}

/** Finds an interactive element by ids in a list of blocks. */
export function findElement(
  blocks: BlockObj[],
  blockId: string,
  actionId: string,
): { block: BlockObj; element: ElementObj } | undefined {
  for (const block of blocks) {
    if (block.block_id !== blockId) continue;
    const elements = [block.accessory, block.element, ...(block.elements ?? [])];
    for (const element of elements) {
      if (element && element.action_id === actionId) return { block, element };
    }
  }
  return undefined;
}

/** A text object ({type, text}), as the view checks in block-validation.ts require. */
export function isTextObj(v: unknown): v is TextObj {
  return (
    typeof v === 'object' &&
    v !== null &&
    'type' in v &&
    typeof v.type === 'string' &&
    'text' in v &&
    typeof v.text === 'string'
  );
}

export function allOptions(element: ElementObj): OptionObj[] {
  return [...(element.options ?? []), ...(element.option_groups ?? []).flatMap((g) => g.options)];
}

export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * Any JSON value as text for a message. String() throws on objects such as {"toString": 1},
 * which an app (or a page request) can send; this never does.
 */
export function shown(v: unknown): string {
  try {
    return String(v);
  } catch {
    return JSON.stringify(v);
  }
}
