// What drawing Block Kit needs from the page: names for mentions, the people and channels the
// pickers offer, Slack's confirmation dialog, and what a block action sends.
// @ts-check

import { textHtml } from './block-text.js';
import { post } from './calls.js';
import { el } from './dom.js';
import { collectValues } from './form-values.js';
import { me } from './session.js';

/**
 * @typedef {import('./types.js').BlockContext} BlockContext
 * @typedef {import('./types.js').ConfirmObj} ConfirmObj
 * @typedef {import('./types.js').MrkdwnContext} MrkdwnContext
 * @typedef {import('./types.js').OnAction} OnAction
 * @typedef {import('./types.js').PageSnapshot} PageSnapshot
 */

/**
 * Names for <@U…> and <#C…>, and the person's time zone for dates.
 * @param {PageSnapshot} s
 * @returns {MrkdwnContext}
 */
export function mkCtx(s) {
  /** @type {Record<string, string>} */
  const users = {};
  for (const u of s.users) users[u.id] = u.realName;
  /** @type {Record<string, string>} */
  const channels = {};
  for (const c of s.channels) if (c.kind === 'channel') channels[c.id] = c.name;
  return { users, channels, tz: me(s)?.tz ?? 'UTC' };
}

/**
 * Slack's confirmation dialog; resolves true when the person confirms.
 * @param {PageSnapshot} s
 * @param {ConfirmObj} c
 * @returns {Promise<boolean>}
 */
function confirmDialog(s, c) {
  return new Promise((resolve) => {
    const done = (/** @type {boolean} */ answer) => {
      overlay.remove();
      resolve(answer);
    };
    const overlay = el('div', { class: 'overlay confirm' }, [
      el(
        'div',
        { class: 'modal small', role: 'alertdialog', 'aria-label': c.title?.text ?? 'Confirm' },
        [
          el('header', {}, [el('h2', { text: c.title?.text ?? 'Are you sure?' })]),
          el('div', { class: 'modal-body', html: textHtml(c.text, { mk: mkCtx(s) }) }),
          el('footer', {}, [
            el('button', {
              type: 'button',
              text: c.deny?.text ?? 'Cancel',
              onclick: () => done(false),
            }),
            el('button', {
              type: 'button',
              class: c.style === 'danger' ? 'danger' : 'primary',
              text: c.confirm?.text ?? 'Yes',
              onclick: () => done(true),
            }),
          ]),
        ],
      ),
    ]);
    document.body.append(overlay);
  });
}

/**
 * @param {PageSnapshot} s
 * @param {BlockContext['surface']} surface
 * @param {OnAction} onAction
 * @param {Partial<BlockContext>} [extra]
 * @returns {BlockContext}
 */
export function blockCtx(s, surface, onAction, extra = {}) {
  return {
    surface,
    mk: mkCtx(s),
    people: s.users.filter((u) => !u.isBot).map((u) => ({ id: u.id, realName: u.realName })),
    channelList: s.channels
      .filter((c) => c.kind === 'channel')
      .map((c) => ({ id: c.id, label: `#${c.name}` })),
    confirm: (c) => confirmDialog(s, c),
    onAction,
    ...extra,
  };
}

/**
 * A block action inside a view (Home tab or modal), sent with the view's current values.
 * @param {string} viewId
 * @param {() => ParentNode | null} valuesRoot
 * @returns {OnAction}
 */
export function viewAction(viewId, valuesRoot) {
  return (block, element, value) => {
    const root = valuesRoot();
    return post('/sandbox/action', {
      container: { type: 'view', viewId },
      blockId: block.block_id,
      actionId: element.action_id,
      value,
      viewValues: root ? collectValues(root) : {},
    });
  };
}
