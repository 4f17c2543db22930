/**
 * The one length guard for Block Kit (docs/design.md, "Text into Slack"). Slack refuses a
 * whole message or view when one string is over its limit (`invalid_blocks`), so a long
 * project name must never cost a form or a list. Views cut what they know to be long where
 * it reads best; this guard is what every message, view and options answer passes through
 * on its way out, and cuts whatever is still over, by where it sits.
 *
 * The limits are Slack's documented ones (docs.slack.dev, Block Kit reference: blocks,
 * block elements, composition objects, view objects).
 */
import { cut } from '../format/text.js';

export const LIMIT = {
  /** section text; context element text; a text object in general. */
  text: 3000,
  /** Each of a section's `fields`. */
  field: 2000,
  header: 150,
  /** An input block's label and hint. */
  label: 2000,
  hint: 2000,
  placeholder: 150,
  buttonText: 75,
  /** Option text and description; option group label. */
  optionText: 75,
  optionDescription: 75,
  optionValue: 150,
  buttonValue: 2000,
  altText: 2000,
  /** A modal's title, submit and close. */
  viewTitle: 24,
  /** A confirm dialog. */
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** plain_text_input's max_length (and so its longest initial_value). */
  inputMaxLength: 3000,
  /** A message's top-level `text` (Slack truncates beyond it). */
  messageText: 40_000,
} as const;

type Json = Record<string, unknown>;

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// The guard works on a deep copy, cutting strings in place: shapes stay what they were, so
// every function returns the type it was given.

/** Cuts `o[key].text` (a text object) to `max`. */
function fitText(o: Json, key: string, max: number): void {
  const t = o[key];
  if (isObj(t)) fitOwnText(t, max);
}

/** Cuts a text object's own text to `max`. */
function fitOwnText(t: Json, max: number): void {
  if (typeof t.text === 'string' && t.text.length > max) t.text = cut(t.text, max);
}

function fitString(o: Json, key: string, max: number): void {
  const v = o[key];
  if (typeof v === 'string' && v.length > max) o[key] = cut(v, max);
}

function each(list: unknown, apply: (o: Json) => void): void {
  if (Array.isArray(list)) for (const item of list) if (isObj(item)) apply(item);
}

function fitOption(o: Json): void {
  fitText(o, 'text', LIMIT.optionText);
  fitText(o, 'description', LIMIT.optionDescription);
  // A value is an id the app reads back: never cut here (a cut id would name another
  // thing); builders keep values short.
}

function fitElement(e: Json): void {
  if (e.type === 'button') fitText(e, 'text', LIMIT.buttonText);
  fitText(e, 'placeholder', LIMIT.placeholder);
  each(e.options, fitOption);
  if (isObj(e.initial_option)) fitOption(e.initial_option);
  each(e.initial_options, fitOption);
  each(e.option_groups, (g) => {
    fitText(g, 'label', LIMIT.optionText);
    each(g.options, fitOption);
  });
  if (isObj(e.confirm)) {
    fitText(e.confirm, 'title', LIMIT.confirmTitle);
    fitText(e.confirm, 'text', LIMIT.confirmText);
    fitText(e.confirm, 'confirm', LIMIT.confirmButton);
    fitText(e.confirm, 'deny', LIMIT.confirmButton);
  }
  if (e.type === 'plain_text_input' && typeof e.initial_value === 'string') {
    const max = typeof e.max_length === 'number' ? e.max_length : LIMIT.inputMaxLength;
    // Not "…": the field holds what the person will save. Forms that cut a value know it
    // and do not write it back (tasks/form/open.ts, projects/form/read.ts).
    if (e.initial_value.length > max) e.initial_value = e.initial_value.slice(0, max);
  }
  fitString(e, 'alt_text', LIMIT.altText);
}

function fitBlock(b: Json): void {
  switch (b.type) {
    case 'section':
      fitText(b, 'text', LIMIT.text);
      each(b.fields, (f) => fitOwnText(f, LIMIT.field));
      if (isObj(b.accessory)) fitElement(b.accessory);
      break;
    case 'header':
      fitText(b, 'text', LIMIT.header);
      break;
    case 'context':
      each(b.elements, (e) => (e.type === 'image' ? fitElement(e) : fitOwnText(e, LIMIT.text)));
      break;
    case 'actions':
      each(b.elements, fitElement);
      break;
    case 'input':
      fitText(b, 'label', LIMIT.label);
      fitText(b, 'hint', LIMIT.hint);
      if (isObj(b.element)) fitElement(b.element);
      break;
    case 'image':
      fitString(b, 'alt_text', LIMIT.altText);
      break;
    default:
      break;
  }
}

/** Blocks with every string within its limit (a copy). */
export function fitBlocks<T>(blocks: readonly T[]): T[] {
  const copy = structuredClone([...blocks]);
  each(copy, fitBlock);
  return copy;
}

/** A message (`text` and `blocks`) within the limits (a copy). */
export function fitMessage<T extends object>(message: T): T {
  const copy = structuredClone(message);
  if (isObj(copy)) {
    fitString(copy, 'text', LIMIT.messageText);
    each(copy.blocks, fitBlock);
  }
  return copy;
}

/** A modal or Home view within the limits (a copy). */
export function fitView<T extends object>(view: T): T {
  const copy = structuredClone(view);
  if (isObj(copy)) {
    for (const key of ['title', 'submit', 'close']) fitText(copy, key, LIMIT.viewTitle);
    each(copy.blocks, fitBlock);
  }
  return copy;
}

/** An answer to a block_suggestion: its options within the limits (a copy). */
export function fitOptionsAnswer<T extends object>(answer: T): T {
  const copy = structuredClone(answer);
  if (isObj(copy)) each(copy.options, fitOption);
  return copy;
}
