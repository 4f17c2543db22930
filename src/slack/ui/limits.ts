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

// The guard walks a message twice at most: first only looking (most messages have nothing
// over a limit, and are sent as they are: a deep copy of every reply was 3 % of a `/work`
// command's CPU in a burst), then, when something is over, on a deep copy, cutting strings in
// place: shapes stay what they were, so every function returns the type it was given.

/** While true, the walk cuts nothing and only notes in `foundOver` that something is over. */
let looking = false;
let foundOver = false;

/** Cuts the string `o[key]` to `max` (or notes that it is over, while looking). */
function fitString(o: Json, key: string, max: number, shorten = cut): void {
  const v = o[key];
  if (typeof v !== 'string' || v.length <= max) return;
  if (looking) foundOver = true;
  else o[key] = shorten(v, max);
}

/** `value` itself when nothing in it is over a limit; else a copy with what is over cut. */
function fitted<T>(value: T, walk: (v: unknown) => void): T {
  looking = true;
  foundOver = false;
  try {
    walk(value);
  } finally {
    looking = false;
  }
  if (!foundOver) return value;
  const copy = structuredClone(value);
  walk(copy);
  return copy;
}

/** Cuts `o[key].text` (a text object) to `max`. */
function fitText(o: Json, key: string, max: number): void {
  const t = o[key];
  if (isObj(t)) fitOwnText(t, max);
}

/** Cuts a text object's own text to `max`. */
function fitOwnText(t: Json, max: number): void {
  fitString(t, 'text', max);
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
  if (e.type === 'plain_text_input') {
    const max = typeof e.max_length === 'number' ? e.max_length : LIMIT.inputMaxLength;
    // Not "…": the field holds what the person will save. Forms that cut a value know it
    // and do not write it back (tasks/form/open.ts, projects/form/read.ts).
    fitString(e, 'initial_value', max, (v, n) => v.slice(0, n));
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

// Each of these returns what it was given when nothing in it is over a limit (send it as it
// is; do not change it afterwards), else a copy with what is over cut.

/** Blocks with every string within its limit. */
export function fitBlocks<T>(blocks: readonly T[]): T[] {
  return fitted([...blocks], (copy) => each(copy, fitBlock));
}

/** A message (`text` and `blocks`) within the limits. */
export function fitMessage<T extends object>(message: T): T {
  return fitted(message, (copy) => {
    if (!isObj(copy)) return;
    fitString(copy, 'text', LIMIT.messageText);
    each(copy.blocks, fitBlock);
  });
}

/** A modal or Home view within the limits. */
export function fitView<T extends object>(view: T): T {
  return fitted(view, (copy) => {
    if (!isObj(copy)) return;
    for (const key of ['title', 'submit', 'close']) fitText(copy, key, LIMIT.viewTitle);
    each(copy.blocks, fitBlock);
  });
}

/** An answer to a block_suggestion: its options within the limits. */
export function fitOptionsAnswer<T extends object>(answer: T): T {
  return fitted(answer, (copy) => {
    if (isObj(copy)) each(copy.options, fitOption);
  });
}
