// Block Kit → DOM for messages, modals and the Home tab: blocks (sections, headers, context,
// actions, images, inputs, rich text, markdown) and legacy attachments; their interactive
// elements are drawn by elements.js. Unknown blocks and elements are shown as such, not hidden.
// @ts-check

/**
 * @typedef {import('./types.js').BlockContext} BlockContext
 * @typedef {import('./types.js').BlockObj} BlockObj
 * @typedef {import('./types.js').ElementObj} ElementObj
 * @typedef {import('./types.js').RichTextItem} RichTextItem
 * @typedef {import('./types.js').RichTextPart} RichTextPart
 * @typedef {import('./types.js').TextObj} TextObj
 */

import { blocksIn, objects, str } from './app-json.js';
import { textHtml, unsupported } from './block-text.js';
import { el, nextId } from './dom.js';
import { imageLink, renderElement } from './elements.js';
import { escapeHtml, mrkdwnToHtml } from './mrkdwn.js';

/**
 * @param {BlockObj} block
 * @param {BlockContext} ctx
 */
function richText(block, ctx) {
  const inline = (/** @type {RichTextItem[] | undefined} */ items) =>
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
  const part = (/** @type {RichTextPart} */ p) => {
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

/**
 * A context block's text element (its `text` is the string itself) as a text object.
 * @param {ElementObj} e
 * @returns {TextObj | string | undefined}
 */
function contextText(e) {
  return typeof e.text === 'string' ? { type: e.type, text: e.text, emoji: e.emoji } : e.text;
}

/**
 * @param {BlockObj} block
 * @param {BlockContext} ctx
 */
function inputBlock(block, ctx) {
  const id = nextId('field');
  const errorId = `${id}-error`;
  const error = block.block_id === undefined ? undefined : ctx.errors?.[block.block_id];
  const label = el('label', { class: 'bk-label', for: id }, [
    el('span', { html: textHtml(block.label, ctx) }),
    block.optional ? el('span', { class: 'bk-optional', text: ' (optional)' }) : null,
  ]);
  const element = renderElement(block, block.element, ctx, id);
  if (error) {
    element.setAttribute('aria-invalid', 'true');
    element.setAttribute('aria-describedby', errorId);
  }
  // Checkbox and radio groups have no single control to point a <label for> at.
  if (element.getAttribute('role') === 'group') {
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

/**
 * @param {BlockObj} block
 * @param {BlockContext} ctx
 * @returns {HTMLElement}
 */
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
            : el('span', { html: textHtml(contextText(e), ctx) }),
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
      return el('div', {
        class: 'bk-text',
        html: mrkdwnToHtml(typeof block.text === 'string' ? block.text : '', ctx.mk),
      });
    default:
      return unsupported(`a ${block.type ?? 'nameless'} block`);
  }
}

/**
 * @param {BlockObj[] | null | undefined} blocks
 * @param {BlockContext} ctx
 */
export function renderBlocks(blocks, ctx) {
  const frag = document.createDocumentFragment();
  for (const b of blocks ?? []) frag.append(renderBlock(b, ctx));
  return frag;
}

/**
 * Legacy attachments: a colored bar with text, fields and blocks (read with care: the sandbox
 * passes them on as the app sent them).
 * @param {Record<string, unknown>[] | null | undefined} attachments
 * @param {BlockContext} ctx
 */
export function renderAttachments(attachments, ctx) {
  return (attachments ?? []).map((a) => {
    const color = str(a.color);
    const bar = color && /^#?[0-9a-f]{6}$/i.test(color) ? `#${color.replace('#', '')}` : '#ddd';
    const box = el('div', { class: 'attachment', style: `border-left-color:${bar}` });
    const [pretext, title, text] = [str(a.pretext), str(a.title), str(a.text)];
    if (pretext) box.append(el('div', { html: mrkdwnToHtml(pretext, ctx.mk) }));
    if (title) box.append(el('b', { text: title }));
    if (text) box.append(el('div', { html: mrkdwnToHtml(text, ctx.mk) }));
    if (Array.isArray(a.fields)) {
      box.append(
        el(
          'div',
          { class: 'bk-fields' },
          objects(a.fields).map((f) =>
            el('div', {
              class: 'bk-field',
              html: `<b>${escapeHtml(str(f.title) ?? '')}</b><br>${mrkdwnToHtml(str(f.value) ?? '', ctx.mk)}`,
            }),
          ),
        ),
      );
    }
    if (Array.isArray(a.blocks)) box.append(renderBlocks(blocksIn(a.blocks), ctx));
    return box;
  });
}
