// Block Kit → DOM for messages, modals and the Home tab. Interactive elements carry
// data-block-id / data-action-id / data-type so the page can read a modal's values back in the
// shape Slack's state.values expects. Unknown blocks and elements are shown as such, not hidden.

import { el, nextId } from './dom.js';
import { applyTypeahead, readTypeahead, typeahead } from './external-select.js';
import { escapeHtml, mrkdwnToHtml, plainToHtml } from './mrkdwn.js';

export { el };

/** A text object as HTML. */
export function textHtml(t, ctx) {
  if (!t) return '';
  if (typeof t === 'string') return mrkdwnToHtml(t, ctx.mk);
  return t.type === 'mrkdwn'
    ? mrkdwnToHtml(t.text, ctx.mk)
    : plainToHtml(t.text, t.emoji !== false);
}

function plainText(t) {
  return t && typeof t === 'object' ? String(t.text ?? '') : String(t ?? '');
}

function unsupported(what) {
  return el('span', { class: 'bk-unsupported', text: `[${what} is not supported by the sandbox]` });
}

function optionElements(e, selected) {
  const option = (o) =>
    el('option', { value: o.value, selected: selected.includes(o.value) }, [plainText(o.text)]);
  if (e.option_groups) {
    return e.option_groups.map((g) =>
      el('optgroup', { label: plainText(g.label) }, (g.options ?? []).map(option)),
    );
  }
  return (e.options ?? []).map(option);
}

function stateAttrs(block, e, extra = {}) {
  return {
    'data-block-id': block.block_id,
    'data-action-id': e.action_id,
    'data-type': e.type,
    'data-stateful': true,
    ...extra,
  };
}

/** Whether changing this element should send block_actions right away. */
function dispatches(block) {
  return block.type !== 'input' || block.dispatch_action === true;
}

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

function people(ctx, selected) {
  return ctx.people.map((p) =>
    el('option', { value: p.id, selected: selected.includes(p.id) }, [p.realName]),
  );
}

function conversations(ctx, selected) {
  return ctx.channelList.map((c) =>
    el('option', { value: c.id, selected: selected.includes(c.id) }, [c.label]),
  );
}

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
    if (/^https?:/i.test(e.url ?? '')) window.open(e.url, '_blank', 'noopener');
    ctx.onAction(block, e, e.value ?? null);
  });
  return b;
}

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
          if (/^https?:/i.test(o.url ?? '')) window.open(o.url, '_blank', 'noopener');
          ctx.onAction(block, e, o.value);
        },
      }),
    );
  }
  return details;
}

function choiceList(block, e, ctx, kind) {
  const name = nextId('choice');
  const selected =
    kind === 'checkbox'
      ? (e.initial_options ?? []).map((o) => o.value)
      : [e.initial_option?.value].filter(Boolean);
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
      const checked = [...box.querySelectorAll('input:checked')].map((i) => i.value);
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

function textInput(block, e, ctx, id) {
  const common = stateAttrs(block, e, {
    id,
    placeholder: plainText(e.placeholder) || undefined,
  });
  let input;
  if (e.type === 'plain_text_input' && e.multiline) {
    input = el('textarea', { ...common, rows: 4 });
  } else if (e.type === 'rich_text_input') {
    input = el('textarea', { ...common, rows: 4 });
  } else {
    const type = { email_text_input: 'email', url_text_input: 'url', file_input: 'url' }[e.type];
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
        if (ev.key === 'Enter' && !ev.shiftKey) {
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

/** One interactive element (accessory, actions element or input element). */
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
        choices: optionElements(e, [e.initial_option?.value].filter(Boolean)),
        selected: [e.initial_option?.value].filter(Boolean),
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
      const selected = [e.initial_user].filter(Boolean);
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
      const selected = [e.initial_conversation ?? e.initial_channel].filter(Boolean);
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

function imageLink(url, alt) {
  const safe = /^https?:/i.test(url ?? '') ? url : undefined;
  return el('a', { class: 'bk-image', href: safe, target: '_blank', rel: 'noopener' }, [
    `Image: ${alt || 'untitled'}`,
  ]);
}

function richText(block, ctx) {
  const inline = (items) =>
    (items ?? [])
      .map((i) => {
        if (i.type === 'text') {
          let h = escapeHtml(i.text ?? '').replaceAll('\n', '<br>');
          if (i.style?.code) h = `<code>${h}</code>`;
          if (i.style?.bold) h = `<b>${h}</b>`;
          if (i.style?.italic) h = `<i>${h}</i>`;
          if (i.style?.strike) h = `<s>${h}</s>`;
          return h;
        }
        if (i.type === 'link') return mrkdwnToHtml(`<${i.url}|${i.text ?? i.url}>`, ctx.mk);
        if (i.type === 'user') return mrkdwnToHtml(`<@${i.user_id}>`, ctx.mk);
        if (i.type === 'channel') return mrkdwnToHtml(`<#${i.channel_id}>`, ctx.mk);
        if (i.type === 'emoji') return mrkdwnToHtml(`:${i.name}:`, ctx.mk);
        return '';
      })
      .join('');
  const part = (p) => {
    if (p.type === 'rich_text_list') {
      const tag = p.style === 'ordered' ? 'ol' : 'ul';
      return `<${tag}>${(p.elements ?? []).map((x) => `<li>${inline(x.elements)}</li>`).join('')}</${tag}>`;
    }
    if (p.type === 'rich_text_quote') return `<q>${inline(p.elements)}</q>`;
    if (p.type === 'rich_text_preformatted') return `<pre>${inline(p.elements)}</pre>`;
    return `<div>${inline(p.elements)}</div>`;
  };
  return el('div', { class: 'bk-rich', html: (block.elements ?? []).map(part).join('') });
}

function inputBlock(block, ctx) {
  const id = nextId('field');
  const errorId = `${id}-error`;
  const error = ctx.errors?.[block.block_id];
  const label = el('label', { class: 'bk-label', for: id }, [
    el('span', { html: textHtml(block.label, ctx) }),
    block.optional ? el('span', { class: 'bk-optional', text: ' (optional)' }) : null,
  ]);
  const element = renderElement(block, block.element, ctx, id);
  if (error) {
    element.setAttribute?.('aria-invalid', 'true');
    element.setAttribute?.('aria-describedby', errorId);
  }
  // Checkbox and radio groups have no single control to point a <label for> at.
  if (element.getAttribute?.('role') === 'group') {
    element.setAttribute('aria-labelledby', `${id}-label`);
    label.id = `${id}-label`;
    label.removeAttribute('for');
  }
  return el(
    'div',
    { class: `bk-input${error ? ' has-error' : ''}`, 'data-block-id': block.block_id },
    [
      label,
      element,
      block.hint ? el('div', { class: 'bk-hint', html: textHtml(block.hint, ctx) }) : null,
      error ? el('div', { class: 'bk-error', id: errorId, role: 'alert', text: error }) : null,
    ],
  );
}

export function renderBlock(block, ctx) {
  if (!block || typeof block !== 'object') return unsupported('this block');
  switch (block.type) {
    case 'section': {
      const body = el('div', { class: 'bk-section-body' }, [
        block.text ? el('div', { class: 'bk-text', html: textHtml(block.text, ctx) }) : null,
        block.fields
          ? el(
              'div',
              { class: 'bk-fields' },
              block.fields.map((f) => el('div', { class: 'bk-field', html: textHtml(f, ctx) })),
            )
          : null,
      ]);
      const accessory = block.accessory
        ? el('div', { class: 'bk-accessory' }, [renderElement(block, block.accessory, ctx)])
        : null;
      return el('div', { class: 'bk-section', 'data-block-id': block.block_id }, [body, accessory]);
    }
    case 'header':
      return el('h3', { class: 'bk-header', html: textHtml(block.text, ctx) });
    case 'divider':
      return el('hr', { class: 'bk-divider' });
    case 'context':
      return el(
        'div',
        { class: 'bk-context' },
        (block.elements ?? []).map((e) =>
          e.type === 'image'
            ? imageLink(e.image_url, e.alt_text)
            : el('span', { html: textHtml(e, ctx) }),
        ),
      );
    case 'actions':
      return el(
        'div',
        { class: 'bk-actions', 'data-block-id': block.block_id },
        (block.elements ?? []).map((e) => renderElement(block, e, ctx)),
      );
    case 'image':
      return el('div', { class: 'bk-image-block' }, [
        block.title
          ? el('div', { class: 'bk-image-title', html: textHtml(block.title, ctx) })
          : null,
        imageLink(block.image_url, block.alt_text),
      ]);
    case 'input':
      return inputBlock(block, ctx);
    case 'rich_text':
      return richText(block, ctx);
    case 'markdown':
      return el('div', { class: 'bk-text', html: mrkdwnToHtml(block.text ?? '', ctx.mk) });
    default:
      return unsupported(`a ${block.type ?? 'nameless'} block`);
  }
}

export function renderBlocks(blocks, ctx) {
  const frag = document.createDocumentFragment();
  for (const b of blocks ?? []) frag.append(renderBlock(b, ctx));
  return frag;
}

/** Legacy attachments: a colored bar with text, fields and blocks. */
export function renderAttachments(attachments, ctx) {
  return (attachments ?? []).map((a) => {
    const bar = /^#?[0-9a-f]{6}$/i.test(a.color ?? '') ? `#${a.color.replace('#', '')}` : '#ddd';
    const box = el('div', { class: 'attachment', style: `border-left-color:${bar}` });
    if (a.pretext) box.append(el('div', { html: mrkdwnToHtml(a.pretext, ctx.mk) }));
    if (a.title) box.append(el('b', { text: a.title }));
    if (a.text) box.append(el('div', { html: mrkdwnToHtml(a.text, ctx.mk) }));
    if (a.fields) {
      box.append(
        el(
          'div',
          { class: 'bk-fields' },
          a.fields.map((f) =>
            el('div', {
              class: 'bk-field',
              html: `<b>${escapeHtml(f.title ?? '')}</b><br>${mrkdwnToHtml(f.value ?? '', ctx.mk)}`,
            }),
          ),
        ),
      );
    }
    if (a.blocks) box.append(renderBlocks(a.blocks, ctx));
    return box;
  });
}

/**
 * Reads every stateful element under `root` into { block_id: { action_id: raw } }, where raw
 * is a string, a list of strings, or null — what /sandbox/submit expects.
 */
export function collectValues(root) {
  const values = {};
  for (const node of root.querySelectorAll('[data-stateful]')) {
    const blockId = node.dataset.blockId;
    const actionId = node.dataset.actionId;
    if (!blockId || !actionId) continue;
    let raw;
    if (node.tagName === 'SELECT') {
      raw = node.multiple ? [...node.selectedOptions].map((o) => o.value) : node.value || null;
    } else if (node.classList.contains('bk-choices')) {
      const checked = [...node.querySelectorAll('input:checked')].map((i) => i.value);
      raw = node.dataset.type === 'checkboxes' ? checked : (checked[0] ?? null);
    } else if (node.classList.contains('bk-typeahead')) {
      raw = readTypeahead(node);
    } else {
      raw = node.value === '' ? null : node.value;
    }
    values[blockId] ??= {};
    values[blockId][actionId] = raw;
  }
  return values;
}

/** Puts previously entered values back (after views.update re-renders a modal). */
export function applyValues(root, values, only) {
  for (const node of root.querySelectorAll('[data-stateful]')) {
    const key = `${node.dataset.blockId}/${node.dataset.actionId}`;
    if (only && !only.has(key)) continue;
    const raw = values[node.dataset.blockId]?.[node.dataset.actionId];
    if (raw === undefined) continue;
    const list = Array.isArray(raw) ? raw : raw === null ? [] : [raw];
    if (node.tagName === 'SELECT') {
      for (const o of node.options) o.selected = list.includes(o.value);
      if (!node.multiple && list.length === 0) node.value = '';
    } else if (node.classList.contains('bk-choices')) {
      for (const i of node.querySelectorAll('input')) i.checked = list.includes(i.value);
    } else if (node.classList.contains('bk-typeahead')) {
      applyTypeahead(node, list);
    } else {
      node.value = list.join('\n');
    }
  }
}
