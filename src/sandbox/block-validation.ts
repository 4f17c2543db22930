// The checks Slack makes before it accepts blocks or a view, reported the way Slack does:
// "[ERROR] <problem> [json-pointer:/blocks/0/…]".

import {
  BLOCK_TYPES,
  INTERACTIVE_TYPES,
  isCalendarDate,
  STATEFUL_TYPES,
  type Surface,
  shown,
} from './block-kit.js';
import { isObj } from './json-guards.js';

function err(problem: string, pointer: string): string {
  return `[ERROR] ${problem} [json-pointer:${pointer}]`;
}

function checkText(
  v: unknown,
  pointer: string,
  out: string[],
  opts: { max: number; plainOnly?: boolean; required?: boolean },
): void {
  if (v === undefined) {
    if (opts.required) out.push(err('missing required field', pointer));
    return;
  }
  if (!isObj(v)) {
    out.push(err('must be a text object', pointer));
    return;
  }
  const allowed = opts.plainOnly ? ['plain_text'] : ['plain_text', 'mrkdwn'];
  if (!allowed.includes(shown(v.type))) {
    out.push(err(`must be one of: ${allowed.join(', ')}`, `${pointer}/type`));
  }
  if (typeof v.text !== 'string' || v.text.length === 0) {
    out.push(err('must be a non-empty string', `${pointer}/text`));
  } else if (v.text.length > opts.max) {
    out.push(err(`must be less than ${opts.max + 1} characters`, `${pointer}/text`));
  }
}

function checkOptions(v: unknown, pointer: string, out: string[], min = 1, max = 100): void {
  if (!Array.isArray(v)) {
    out.push(err('must be an array', pointer));
    return;
  }
  if (v.length < min || v.length > max) {
    out.push(err(`must provide between ${min} and ${max} items`, pointer));
  }
  v.forEach((o, i) => {
    if (!isObj(o)) {
      out.push(err('must be an option object', `${pointer}/${i}`));
      return;
    }
    checkText(o.text, `${pointer}/${i}/text`, out, { max: 75, required: true });
    if (typeof o.value !== 'string' || o.value.length === 0 || o.value.length > 150) {
      out.push(err('must be a string of 1 to 150 characters', `${pointer}/${i}/value`));
    }
  });
}

function checkElement(v: unknown, pointer: string, out: string[], context: 'input' | 'any'): void {
  if (!isObj(v)) {
    out.push(err('must be an element object', pointer));
    return;
  }
  const type = shown(v.type);
  if (!INTERACTIVE_TYPES.has(type) && type !== 'image') {
    out.push(err(`unsupported type \`${type}\``, `${pointer}/type`));
    return;
  }
  if (context === 'input' && !STATEFUL_TYPES.has(type)) {
    out.push(err(`\`${type}\` is not allowed in an input block`, `${pointer}/type`));
  }
  if (v.action_id !== undefined && (typeof v.action_id !== 'string' || v.action_id.length > 255)) {
    out.push(err('must be a string of at most 255 characters', `${pointer}/action_id`));
  }
  if (type === 'button') {
    checkText(v.text, `${pointer}/text`, out, { max: 75, plainOnly: true, required: true });
    if (v.value !== undefined && (typeof v.value !== 'string' || v.value.length > 2000)) {
      out.push(err('must be a string of at most 2000 characters', `${pointer}/value`));
    }
    if (v.style !== undefined && v.style !== 'primary' && v.style !== 'danger') {
      out.push(err('must be one of: primary, danger', `${pointer}/style`));
    }
  }
  if (type === 'static_select' || type === 'multi_static_select') {
    if (v.options === undefined && v.option_groups === undefined) {
      out.push(err('must provide either options or option_groups', pointer));
    }
    if (v.options !== undefined) checkOptions(v.options, `${pointer}/options`, out);
    if (Array.isArray(v.option_groups)) {
      v.option_groups.forEach((g, i) => {
        if (isObj(g)) checkOptions(g.options, `${pointer}/option_groups/${i}/options`, out);
      });
    }
  }
  if (type === 'overflow') checkOptions(v.options, `${pointer}/options`, out, 1, 5);
  if (type === 'checkboxes') checkOptions(v.options, `${pointer}/options`, out, 1, 10);
  if (type === 'radio_buttons') checkOptions(v.options, `${pointer}/options`, out, 1, 10);
  if (type === 'image' && (typeof v.image_url !== 'string' || typeof v.alt_text !== 'string')) {
    out.push(err('image elements need image_url and alt_text', pointer));
  }
  if (type === 'datepicker' && v.initial_date !== undefined && !isCalendarDate(v.initial_date)) {
    out.push(err('must be a date in the format YYYY-MM-DD', `${pointer}/initial_date`));
  }
  if (v.placeholder !== undefined) {
    checkText(v.placeholder, `${pointer}/placeholder`, out, { max: 150, plainOnly: true });
  }
  if (
    type === 'plain_text_input' &&
    typeof v.initial_value === 'string' &&
    typeof v.max_length === 'number' &&
    v.initial_value.length > v.max_length
  ) {
    out.push(err('must be no longer than max_length', `${pointer}/initial_value`));
  }
}

/** Slack's checks on a `blocks` array; returns the problems found (empty when valid). */
export function validateBlocks(blocks: unknown, surface: Surface, pointer = '/blocks'): string[] {
  const out: string[] = [];
  if (!Array.isArray(blocks)) return [err('must be an array', pointer)];
  const max = surface === 'message' ? 50 : 100;
  if (blocks.length > max) out.push(err(`no more than ${max} items allowed`, pointer));
  const blockIds = new Set<string>();
  blocks.forEach((b, i) => {
    const at = `${pointer}/${i}`;
    if (!isObj(b)) {
      out.push(err('must be a block object', at));
      return;
    }
    const type = shown(b.type);
    if (!BLOCK_TYPES.has(type)) {
      out.push(err(`unsupported type \`${type}\``, `${at}/type`));
      return;
    }
    if (b.block_id !== undefined) {
      if (typeof b.block_id !== 'string' || b.block_id.length === 0 || b.block_id.length > 255) {
        out.push(err('must be a string of 1 to 255 characters', `${at}/block_id`));
      } else if (blockIds.has(b.block_id)) {
        out.push(err(`duplicate block_id \`${b.block_id}\``, `${at}/block_id`));
      } else blockIds.add(b.block_id);
    }
    switch (type) {
      case 'section':
        if (b.text === undefined && b.fields === undefined) {
          out.push(err('must provide either text or fields', at));
        }
        checkText(b.text, `${at}/text`, out, { max: 3000 });
        if (b.fields !== undefined) {
          if (!Array.isArray(b.fields) || b.fields.length > 10) {
            out.push(err('must be an array of at most 10 text objects', `${at}/fields`));
          } else {
            b.fields.forEach((f, j) => {
              checkText(f, `${at}/fields/${j}`, out, { max: 2000 });
            });
          }
        }
        if (b.accessory !== undefined) checkElement(b.accessory, `${at}/accessory`, out, 'any');
        break;
      case 'header':
        checkText(b.text, `${at}/text`, out, { max: 150, plainOnly: true, required: true });
        break;
      case 'actions': {
        if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 25) {
          out.push(err('must provide between 1 and 25 elements', `${at}/elements`));
          break;
        }
        const actionIds = new Set<string>();
        b.elements.forEach((e, j) => {
          checkElement(e, `${at}/elements/${j}`, out, 'any');
          if (isObj(e) && typeof e.action_id === 'string') {
            if (actionIds.has(e.action_id)) {
              out.push(err(`duplicate action_id \`${e.action_id}\``, `${at}/elements/${j}`));
            }
            actionIds.add(e.action_id);
          }
        });
        break;
      }
      case 'context':
        if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > 10) {
          out.push(err('must provide between 1 and 10 elements', `${at}/elements`));
          break;
        }
        b.elements.forEach((e, j) => {
          if (isObj(e) && e.type === 'image') checkElement(e, `${at}/elements/${j}`, out, 'any');
          else checkText(e, `${at}/elements/${j}`, out, { max: 3000, required: true });
        });
        break;
      case 'input':
        checkText(b.label, `${at}/label`, out, { max: 2000, plainOnly: true, required: true });
        checkText(b.hint, `${at}/hint`, out, { max: 2000, plainOnly: true });
        if (b.element === undefined) out.push(err('missing required field', `${at}/element`));
        else checkElement(b.element, `${at}/element`, out, 'input');
        break;
      case 'image':
        if (typeof b.image_url !== 'string' && !isObj(b.slack_file)) {
          out.push(err('missing required field', `${at}/image_url`));
        }
        if (typeof b.alt_text !== 'string')
          out.push(err('missing required field', `${at}/alt_text`));
        break;
      default:
        break;
    }
  });
  return out;
}

/**
 * Slack's checks on an app's answer to a block_suggestion: `options` or `option_groups`, at most
 * 100 of either (an empty `options` list is how an app says "no matches").
 */
export function validateOptionsAnswer(answer: unknown): string[] {
  if (!isObj(answer)) return [err('must be an object', '/')];
  const out: string[] = [];
  if (answer.options !== undefined) {
    checkOptions(answer.options, '/options', out, 0, 100);
  } else if (answer.option_groups !== undefined) {
    const groups = answer.option_groups;
    if (!Array.isArray(groups) || groups.length > 100) {
      return [err('must be an array of at most 100 option groups', '/option_groups')];
    }
    groups.forEach((g, i) => {
      const at = `/option_groups/${i}`;
      if (!isObj(g)) {
        out.push(err('must be an option group object', at));
        return;
      }
      checkText(g.label, `${at}/label`, out, { max: 75, plainOnly: true, required: true });
      checkOptions(g.options, `${at}/options`, out, 1, 100);
    });
  } else {
    out.push(err('must provide either options or option_groups', '/'));
  }
  return out;
}

/** Slack's checks on a view object; `type` is what the method expects ('modal' or 'home'). */
export function validateView(view: unknown, type: 'modal' | 'home'): string[] {
  if (!isObj(view)) return [err('must be a view object', '/view')];
  const out: string[] = [];
  if (view.type !== type) {
    out.push(err(`must be \`${type}\` for this method`, '/view/type'));
    return out;
  }
  if (type === 'modal') {
    checkText(view.title, '/view/title', out, { max: 24, plainOnly: true, required: true });
    checkText(view.submit, '/view/submit', out, { max: 24, plainOnly: true });
    checkText(view.close, '/view/close', out, { max: 24, plainOnly: true });
    const hasInput =
      Array.isArray(view.blocks) && view.blocks.some((b) => isObj(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      out.push(err('`submit` is required when an `input` block is in `blocks`', '/view/submit'));
    }
  }
  for (const key of ['private_metadata', 'callback_id', 'external_id'] as const) {
    const v = view[key];
    const max = key === 'private_metadata' ? 3000 : 255;
    if (v !== undefined && (typeof v !== 'string' || v.length > max)) {
      out.push(err(`must be a string of at most ${max} characters`, `/view/${key}`));
    }
  }
  out.push(...validateBlocks(view.blocks ?? [], type, '/view/blocks'));
  return out;
}
