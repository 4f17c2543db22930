// One element of a view as Slack reads it: its entry in `state.values` from what the user
// entered (the page's raw form), the problem Slack's own client shows before sending anything
// (unknown options, numbers, dates, times, lengths, e-mails, URLs), and its initial value.

import { allOptions, type ElementObj, isCalendarDate, type OptionObj, shown } from './block-kit.js';
import type { RawValue } from './page/types.js';

/** What the user entered for one element, as the page sends it (page/types.d.ts). */
export type { RawValue } from './page/types.js';
/** What the user entered in a view, by block and action id (any may be missing). */
export type RawValues = Record<string, Record<string, RawValue | undefined> | undefined>;

export interface StateContext {
  userExists(id: string): boolean;
  channelExists(id: string): boolean;
  /** Registers an uploaded file (the sandbox takes a URL) and returns Slack's file object. */
  makeFile(url: string): Record<string, unknown>;
  /** An option the app offered for an external_select (block_suggestion), by its value. */
  offered?(blockId: string, actionId: string, value: string): OptionObj | undefined;
}

export function asList(raw: RawValue | undefined): string[] {
  if (raw === null || raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((s) => String(s).trim()).filter((s) => s.length > 0);
}

function asText(raw: RawValue | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const s = Array.isArray(raw) ? raw.join('\n') : String(raw);
  return s.length === 0 ? null : s;
}

/** The value an element starts with, in the page's raw form. */
export function initialRaw(element: ElementObj): RawValue {
  switch (element.type) {
    case 'static_select':
    case 'radio_buttons':
    case 'external_select':
      return element.initial_option?.value ?? null;
    case 'multi_static_select':
    case 'checkboxes':
    case 'multi_external_select':
      return (element.initial_options ?? []).map((o) => o.value);
    case 'datepicker':
      return element.initial_date ?? null;
    case 'timepicker':
      return element.initial_time ?? null;
    case 'users_select':
      return element.initial_user ?? null;
    case 'multi_users_select':
      return element.initial_users ?? [];
    case 'conversations_select':
      return element.initial_conversation ?? null;
    case 'multi_conversations_select':
      return element.initial_conversations ?? [];
    case 'channels_select':
      return element.initial_channel ?? null;
    case 'multi_channels_select':
      return element.initial_channels ?? [];
    case 'file_input':
      return [];
    default:
      return element.initial_value === undefined ? null : shown(element.initial_value);
  }
}

function numberProblem(text: string, element: ElementObj): string | undefined {
  const pattern = element.is_decimal_allowed ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/;
  if (!pattern.test(text.trim())) {
    return element.is_decimal_allowed ? 'Enter a number.' : 'Enter a whole number.';
  }
  const n = Number(text);
  if (element.min_value !== undefined && n < Number(element.min_value)) {
    return `Enter a number of at least ${element.min_value}.`;
  }
  if (element.max_value !== undefined && n > Number(element.max_value)) {
    return `Enter a number of at most ${element.max_value}.`;
  }
  return undefined;
}

/** One element's entry in `state.values`, plus the problem Slack's client would show, if any. */
export function elementState(
  element: ElementObj,
  raw: RawValue | undefined,
  ctx: StateContext,
  blockId = '',
): { value: Record<string, unknown>; problem?: string; empty: boolean } {
  const type = element.type;
  const value: Record<string, unknown> = { type };
  const options = allOptions(element);
  const pick = (v: string) => options.find((o) => o.value === v);
  let problem: string | undefined;
  let empty = false;
  switch (type) {
    case 'static_select':
    case 'radio_buttons': {
      const [v] = asList(raw);
      const option = v === undefined ? undefined : pick(v);
      if (v !== undefined && !option) problem = 'Choose an option from the list.';
      value.selected_option = option ?? null;
      empty = !option;
      break;
    }
    case 'multi_static_select':
    case 'checkboxes': {
      const chosen = asList(raw).map((v) => pick(v));
      if (chosen.some((o) => !o)) problem = 'Choose options from the list.';
      const picked = chosen.filter((o): o is OptionObj => o !== undefined);
      if (element.max_selected_items !== undefined && picked.length > element.max_selected_items) {
        problem = `Choose at most ${element.max_selected_items}.`;
      }
      value.selected_options = picked;
      empty = picked.length === 0;
      break;
    }
    case 'users_select':
    case 'conversations_select':
    case 'channels_select': {
      const [v] = asList(raw);
      const exists =
        v !== undefined && (type === 'users_select' ? ctx.userExists(v) : ctx.channelExists(v));
      if (v !== undefined && !exists) problem = 'Choose from the list.';
      const key =
        type === 'users_select'
          ? 'selected_user'
          : type === 'channels_select'
            ? 'selected_channel'
            : 'selected_conversation';
      value[key] = exists ? v : null;
      empty = !exists;
      break;
    }
    case 'multi_users_select':
    case 'multi_conversations_select':
    case 'multi_channels_select': {
      const list = asList(raw);
      const isUsers = type === 'multi_users_select';
      const valid = list.filter((v) => (isUsers ? ctx.userExists(v) : ctx.channelExists(v)));
      if (valid.length !== list.length) problem = 'Choose from the list.';
      if (element.max_selected_items !== undefined && valid.length > element.max_selected_items) {
        problem = `Choose at most ${element.max_selected_items}.`;
      }
      const key = isUsers
        ? 'selected_users'
        : type === 'multi_channels_select'
          ? 'selected_channels'
          : 'selected_conversations';
      value[key] = valid;
      empty = valid.length === 0;
      break;
    }
    case 'datepicker': {
      const text = asText(raw);
      if (text !== null && !isCalendarDate(text)) problem = 'Enter a valid date.';
      value.selected_date = text !== null && !problem ? text : null;
      empty = text === null;
      break;
    }
    case 'timepicker': {
      const text = asText(raw);
      if (text !== null && !/^([01]\d|2[0-3]):[0-5]\d$/.test(text)) problem = 'Enter a valid time.';
      value.selected_time = text !== null && !problem ? text : null;
      empty = text === null;
      break;
    }
    case 'file_input': {
      const urls = asList(raw)
        .flatMap((s) => s.split(/\s+/))
        .filter((s) => s.length > 0);
      const bad = urls.find((u) => !/^https?:\/\/\S+$/i.test(u));
      if (bad) problem = 'Enter the file as an http(s) URL.';
      else if (element.max_files !== undefined && urls.length > element.max_files) {
        problem = `Attach at most ${element.max_files} files.`;
      }
      value.files = problem ? [] : urls.map((u) => ctx.makeFile(u));
      empty = urls.length === 0;
      break;
    }
    case 'rich_text_input': {
      const text = asText(raw);
      value.rich_text_value = {
        type: 'rich_text',
        elements: text ? [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] : [],
      };
      empty = text === null;
      break;
    }
    case 'external_select':
    case 'multi_external_select': {
      // Whole options come back, as Slack sends them: the initial ones, or ones the app offered.
      const initial = [element.initial_option, ...(element.initial_options ?? [])];
      const find = (v: string) =>
        initial.find((o) => o?.value === v) ?? ctx.offered?.(blockId, element.action_id ?? '', v);
      const chosen = asList(raw).map(find);
      const picked = chosen.filter((o): o is OptionObj => o !== undefined);
      const single = type === 'external_select';
      if (picked.length !== chosen.length) {
        problem = single ? 'Choose an option from the list.' : 'Choose options from the list.';
      }
      if (single) {
        value.selected_option = picked[0] ?? null;
      } else {
        if (
          element.max_selected_items !== undefined &&
          picked.length > element.max_selected_items
        ) {
          problem = `Choose at most ${element.max_selected_items}.`;
        }
        value.selected_options = picked;
      }
      empty = picked.length === 0;
      break;
    }
    case 'datetimepicker':
      // Not offered by the sandbox page; reported as empty so the app sees a consistent state.
      value.selected_date_time = null;
      empty = true;
      break;
    default: {
      // plain_text_input, number_input, email_text_input, url_text_input
      const text = asText(raw);
      value.value = text;
      empty = text === null || text.trim().length === 0;
      if (!empty && text !== null) {
        if (element.min_length !== undefined && text.length < element.min_length) {
          problem = `Enter at least ${element.min_length} characters.`;
        } else if (element.max_length !== undefined && text.length > element.max_length) {
          problem = `Enter at most ${element.max_length} characters.`;
        } else if (type === 'number_input') {
          problem = numberProblem(text, element);
        } else if (type === 'email_text_input' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) {
          problem = 'Enter a valid email address.';
        } else if (type === 'url_text_input' && !/^https?:\/\/\S+$/i.test(text)) {
          problem = 'Enter a valid URL.';
        }
      }
      break;
    }
  }
  return { value, problem, empty };
}
