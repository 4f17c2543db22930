// Block Kit text objects as HTML (mrkdwn or plain_text with :emoji:), and the note the page
// shows for what the sandbox cannot draw.
// @ts-check

/**
 * @typedef {import('./types.js').BlockContext} BlockContext
 * @typedef {import('./types.js').TextObj} TextObj
 */

import { el } from './dom.js';
import { mrkdwnToHtml, plainToHtml } from './mrkdwn.js';

/**
 * A text object as HTML.
 * @param {TextObj | string | undefined} t
 * @param {Pick<BlockContext, 'mk'>} ctx
 */
export function textHtml(t, ctx) {
  if (!t) return '';
  if (typeof t === 'string') return mrkdwnToHtml(t, ctx.mk);
  return t.type === 'mrkdwn'
    ? mrkdwnToHtml(t.text, ctx.mk)
    : plainToHtml(t.text, t.emoji !== false);
}

/** @param {TextObj | string | undefined} t */
export function plainText(t) {
  return t && typeof t === 'object' ? String(t.text ?? '') : String(t ?? '');
}

/** @param {string} what */
export function unsupported(what) {
  return el('span', { class: 'bk-unsupported', text: `[${what} is not supported by the sandbox]` });
}
