// Block Kit's interactive elements → DOM: buttons, overflow menus, selects (static, people,
// conversations; external ones are type-aheads, external-select.js), checkboxes and radio
// buttons, text, number, date and time inputs, images. Each carries data-block-id /
// data-action-id / data-type, so the page reads a modal's values back (form-values.js) and
// sends block_actions when the block dispatches.
// @ts-check

/**
 * @typedef {import('./types.js').BlockContext} BlockContext
 * @typedef {import('./types.js').BlockObj} BlockObj
 * @typedef {import('./types.js').ElementObj} ElementObj
 * @typedef {import('./types.js').OptionObj} OptionObj
 */

import { plainText, textHtml, unsupported } from './block-text.js';
import { el, nextId } from './dom.js';
import { typeahead } from './external-select.js';

/**
 * A list of the one value given, or an empty list (Slack's single initial_* fields).
 * @param {string | undefined} v
 * @returns {string[]}
 */
function given(v) {
  return v ? [v] : [];
}

/**
 * @param {ElementObj} e
 * @param {string[]} selected
 */
function optionElements(e, selected) {
  const option = (/** @type {OptionObj} */ o) =>
    el('option', { value: o.value, selected: selected.includes(o.value) }, [plainText(o.text)]);
  if (e.option_groups) {
    return e.option_groups.map((g) =>
      el('optgroup', { label: plainText(g.label) }, (g.options ?? []).map(option)),
    );
  }
  return (e.options ?? []).map(option);
}

/**
 * The data attributes collectValues reads an element's value by.
 * @param {BlockObj} block
 * @param {ElementObj} e
 * @param {Record<string, string | number | boolean | undefined>} [extra]
 */
function stateAttrs(block, e, extra = {}) {
  return {
    'data-block-id': block.block_id,
    'data-action-id': e.action_id,
    'data-type': e.type,
    'data-stateful': true,
    ...extra,
  };
}

/**
 * Whether changing this element should send block_actions right away.
 * @param {BlockObj} block
 */
function dispatches(block) {
  return block.type !== 'input' || block.dispatch_action === true;
}

/**
 * @param {BlockObj} block
 * @param {ElementObj} e
 * @param {BlockContext} ctx
 * @param {{ multiple: boolean, choices: HTMLElement[], selected: string[], id: string }} how
 */
function makeSelect(block, e, ctx, { multiple, choices, selected, id }) {
  const select = el(
    'select',
    stateAttrs(block, e, {
      id,
      multiple,
      size: multiple ? Math.min(6, choices.length) : undefined,
    }),
  );
  if (!multiple) {
    select.append(el('option', { value: '' }, [plainText(e.placeholder) || 'Select…']));
  }
  for (const c of choices) select.append(c);
  if (!multiple && selected.length === 0) select.value = '';
  select.addEventListener('change', () => {
    ctx.markDirty?.(block.block_id, e.action_id);
    if (dispatches(block) && !multiple) ctx.onAction(block, e, select.value || null);
  });
  if (multiple) {
    // Multi-selects report once the user leaves them, like Slack's menu closing.
    select.addEventListener('blur', () => {
      if (dispatches(block))
        ctx.onAction(
          block,
          e,
          [...select.selectedOptions].map((o) => o.value),
        );
    });
  }
  return select;
}

/**
 * @param {BlockContext} ctx
 * @param {string[]} selected
 */
function people(ctx, selected) {
  return ctx.people.map((p) =>
    el('option', { value: p.id, selected: selected.includes(p.id) }, [p.realName]),
  );
}

/**
 * @param {BlockContext} ctx
 * @param {string[]} selected
 */
function conversations(ctx, selected) {
  return ctx.channelList.map((c) =>
    el('option', { value: c.id, selected: selected.includes(c.id) }, [c.label]),
  );
}

/**
 * @param {BlockObj} block
 * @param {ElementObj} e
 * @param {BlockContext} ctx
 */
function button(block, e, ctx) {
  const b = el('button', {
    type: 'button',
    class: `bk-button ${e.style ?? ''}`.trim(),
    'data-block-id': block.block_id,
    'data-action-id': e.action_id,
    'data-type': 'button',
    'data-url': e.url,
    html: textHtml(e.text, ctx),
  });
  b.addEventListener('click', async () => {
    if (e.confirm && !(await ctx.confirm(e.confirm))) return;
    if (e.url && /^https?:/i.test(e.url)) window.open(e.url, '_blank', 'noopener');
    ctx.onAction(block, e, e.value ?? null);
  });
  return b;
}

/**
 * @param {BlockObj} block
 * @param {ElementObj} e
 * @param {BlockContext} ctx
 */
function overflow(block, e, ctx) {
  const menu = el('div', { class: 'menu', role: 'menu' });
  const details = el('details', { class: 'bk-overflow', 'data-action-id': e.action_id }, [
    el('summary', { 'aria-label': 'More actions', title: 'More actions', text: '⋯' }),
    menu,
  ]);
  for (const o of e.options ?? []) {
    menu.append(
      el('button', {
        type: 'button',
        role: 'menuitem',
        html: textHtml(o.text, ctx),
        onclick: async () => {
          details.open = false;
          if (e.confirm && !(await ctx.confirm(e.confirm))) return;
          if (o.url && /^https?:/i.test(o.url)) window.open(o.url, '_blank', 'noopener');
          ctx.onAction(block, e, o.value);
        },
      }),
    );
  }
  return details;
}

/**
 * @param {BlockObj} block
 * @param {ElementObj} e
 * @param {BlockContext} ctx
 * @param {'checkbox' | 'radio'} kind
 */
function choiceList(block, e, ctx, kind) {
  const name = nextId('choice');
  const selected =
    kind === 'checkbox'
      ? (e.initial_options ?? []).map((o) => o.value)
      : given(e.initial_option?.value);
  const box = el('div', stateAttrs(block, e, { class: 'bk-choices', role: 'group' }));
  for (const o of e.options ?? []) {
    const id = nextId('opt');
    const input = el('input', {
      type: kind,
      id,
      name,
      value: o.value,
      checked: selected.includes(o.value),
    });
    input.addEventListener('change', () => {
      ctx.markDirty?.(block.block_id, e.action_id);
      if (!dispatches(block)) return;
      const checked = [...box.querySelectorAll('input:checked')].map((i) =>
        i instanceof HTMLInputElement ? i.value : '',
      );
      ctx.onAction(block, e, kind === 'checkbox' ? checked : (checked[0] ?? null));
    });
    const label = el('label', { for: id }, [
      el('span', { html: textHtml(o.text, ctx) }),
      o.description ? el('small', { html: textHtml(o.description, ctx) }) : null,
    ]);
    box.append(el('div', { class: 'bk-choice' }, [input, label]));
  }
  return box;
}

/**
 * @param {BlockObj} block
 * @param {ElementObj} e
 * @param {BlockContext} ctx
 * @param {string} id
 */
function textInput(block, e, ctx, id) {
  const common = stateAttrs(block, e, {
    id,
    placeholder: plainText(e.placeholder) || undefined,
  });
  /** @type {HTMLInputElement | HTMLTextAreaElement} */
  let input;
  if (e.type === 'plain_text_input' && e.multiline) {
    input = el('textarea', { ...common, rows: 4 });
  } else if (e.type === 'rich_text_input') {
    input = el('textarea', { ...common, rows: 4 });
  } else {
    /** @type {Record<string, string>} */
    const types = { email_text_input: 'email', url_text_input: 'url', file_input: 'url' };
    const type = types[e.type];
    input = el('input', {
      ...common,
      type: type ?? 'text',
      inputmode:
        e.type === 'number_input' ? (e.is_decimal_allowed ? 'decimal' : 'numeric') : undefined,
    });
  }
  if (e.type === 'file_input') {
    input.placeholder = 'File URL (https://…) — the sandbox takes files as links';
  }
  if (e.initial_value !== undefined && e.initial_value !== null)
    input.value = String(e.initial_value);
  input.addEventListener('input', () => ctx.markDirty?.(block.block_id, e.action_id));
  if (block.dispatch_action) {
    const on = e.dispatch_action_config?.trigger_actions_on ?? ['on_enter_pressed'];
    if (on.includes('on_enter_pressed')) {
      input.addEventListener('keydown', (ev) => {
        if (ev instanceof KeyboardEvent && ev.key === 'Enter' && !ev.shiftKey) {
          ev.preventDefault();
          ctx.onAction(block, e, input.value || null);
        }
      });
    }
    if (on.includes('on_character_entered')) {
      input.addEventListener('input', () => ctx.onAction(block, e, input.value || null));
    }
  }
  return input;
}

/**
 * One interactive element (accessory, actions element or input element).
 * @param {BlockObj} block
 * @param {ElementObj | undefined} e
 * @param {BlockContext} ctx
 * @returns {HTMLElement}
 */
export function renderElement(block, e, ctx, id = nextId('field')) {
  if (!e || typeof e !== 'object') return unsupported('this element');
  switch (e.type) {
    case 'button':
      return button(block, e, ctx);
    case 'overflow':
      return overflow(block, e, ctx);
    case 'image':
      return imageLink(e.image_url, e.alt_text);
    case 'static_select':
      return makeSelect(block, e, ctx, {
        id,
        multiple: false,
        choices: optionElements(e, given(e.initial_option?.value)),
        selected: given(e.initial_option?.value),
      });
    case 'multi_static_select': {
      const selected = (e.initial_options ?? []).map((o) => o.value);
      return makeSelect(block, e, ctx, {
        id,
        multiple: true,
        choices: optionElements(e, selected),
        selected,
      });
    }
    case 'users_select': {
      const selected = given(e.initial_user);
      return makeSelect(block, e, ctx, {
        id,
        multiple: false,
        choices: people(ctx, selected),
        selected,
      });
    }
    case 'multi_users_select': {
      const selected = e.initial_users ?? [];
      return makeSelect(block, e, ctx, {
        id,
        multiple: true,
        choices: people(ctx, selected),
        selected,
      });
    }
    case 'conversations_select':
    case 'channels_select': {
      const selected = given(e.initial_conversation ?? e.initial_channel);
      return makeSelect(block, e, ctx, {
        id,
        multiple: false,
        choices: conversations(ctx, selected),
        selected,
      });
    }
    case 'multi_conversations_select':
    case 'multi_channels_select': {
      const selected = e.initial_conversations ?? e.initial_channels ?? [];
      return makeSelect(block, e, ctx, {
        id,
        multiple: true,
        choices: conversations(ctx, selected),
        selected,
      });
    }
    case 'external_select':
    case 'multi_external_select':
      return typeahead(block, e, ctx, {
        id,
        attrs: stateAttrs(block, e),
        dispatches: dispatches(block),
      });
    case 'checkboxes':
      return choiceList(block, e, ctx, 'checkbox');
    case 'radio_buttons':
      return choiceList(block, e, ctx, 'radio');
    case 'datepicker':
    case 'timepicker': {
      const input = el(
        'input',
        stateAttrs(block, e, { id, type: e.type === 'datepicker' ? 'date' : 'time' }),
      );
      input.value = (e.type === 'datepicker' ? e.initial_date : e.initial_time) ?? '';
      input.addEventListener('change', () => {
        ctx.markDirty?.(block.block_id, e.action_id);
        if (dispatches(block)) ctx.onAction(block, e, input.value || null);
      });
      return input;
    }
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'rich_text_input':
    case 'file_input':
      return textInput(block, e, ctx, id);
    default:
      return unsupported(e.type ?? 'this element');
  }
}

/**
 * @param {string | undefined} url
 * @param {string | undefined} alt
 */
export function imageLink(url, alt) {
  const safe = url && /^https?:/i.test(url) ? url : undefined;
  return el('a', { class: 'bk-image', href: safe, target: '_blank', rel: 'noopener' }, [
    `Image: ${alt || 'untitled'}`,
  ]);
}
