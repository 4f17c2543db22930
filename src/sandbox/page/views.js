// The app's views as Slack draws them: the Home tab, and the top modal of the person's stack
// with its fields, the app's errors under them, and its submit and close buttons. A view the app
// updates (views.update) is redrawn in place: what the person typed and the field they are
// typing in (with the caret) are kept, as in Slack.
// @ts-check

import { blockCtx, viewAction } from './block-context.js';
import { renderBlocks } from './blocks.js';
import { post, suggester } from './calls.js';
import { el } from './dom.js';
import { applyValues, collectValues } from './form-values.js';
import { $, ui } from './session.js';

/**
 * @typedef {import('./types.js').PageSnapshot} PageSnapshot
 * @typedef {import('./types.js').PageView} PageView
 * @typedef {{ blockId: string | undefined, actionId: string | undefined,
 *   caret: { start: number, end: number } | null }} Typing
 */

/** @param {PageSnapshot} s */
export function drawHome(s) {
  const view = s.home;
  const key = JSON.stringify([ui.me, view?.id, view?.hash]);
  if (key === ui.drawn.home) return;
  ui.drawn.home = key;
  const box = $('home');
  if (!view) {
    box.replaceChildren(
      el('p', { class: 'empty', text: `${s.app.name} has not published a Home tab yet.` }),
    );
    return;
  }
  const onAction = viewAction(view.id, () => box);
  const suggest = suggester({ type: 'view', viewId: view.id });
  box.replaceChildren(renderBlocks(view.blocks, blockCtx(s, 'home', onAction, { suggest })));
}

/** @param {PageSnapshot} s */
export function drawModal(s) {
  const stack = s.modals;
  const view = stack[stack.length - 1];
  const root = $('modal-root');
  const m = ui.modal;
  if (!view) {
    root.replaceChildren();
    // The same object: a submit still waiting for its answer sees that its modal is gone.
    Object.assign(m, { id: null, hash: null, errors: {}, problem: null, dirty: new Set() });
    return;
  }
  if (view.id === m.id && view.hash === m.hash && !m.redraw) return;
  const body = root.querySelector('.modal-body');
  const before = body ? collectValues(body) : {};
  /** @type {Set<string> | null} */
  let keep = null;
  if (view.id !== m.id) {
    Object.assign(m, { errors: {}, problem: null, dirty: new Set() });
  } else if (view.hash !== m.hash) {
    // views.update: Slack keeps what the user typed into inputs that are still there.
    m.errors = {};
    m.problem = null;
    keep = m.dirty;
  } else {
    keep = new Set(
      Object.entries(before).flatMap(([b, a]) => Object.keys(a).map((k) => `${b}/${k}`)),
    );
  }
  const fresh = view.id !== m.id;
  m.id = view.id;
  m.hash = view.hash;
  m.redraw = false;

  const onAction = viewAction(view.id, () => root.querySelector('.modal-body'));
  const markDirty = (
    /** @type {string | undefined} */ blockId,
    /** @type {string | undefined} */ actionId,
  ) => m.dirty.add(`${blockId}/${actionId}`);
  const suggest = suggester({ type: 'view', viewId: view.id });
  const content = el('div', { class: 'modal-body' }, [
    renderBlocks(
      view.blocks,
      blockCtx(s, 'modal', onAction, { errors: m.errors, markDirty, suggest }),
    ),
  ]);
  if (keep) applyValues(content, before, keep);
  const closeLabel = view.close?.text ?? (stack.length > 1 ? 'Back' : 'Cancel');
  const submit = view.submit
    ? el('button', { type: 'submit', class: 'primary', text: view.submit.text, disabled: m.busy })
    : null;
  const form = el(
    'form',
    {
      class: 'modal',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'modal-title',
      'data-view-id': view.id,
      'data-callback-id': view.callback_id,
      novalidate: true,
    },
    [
      el('header', {}, [
        el('h2', { id: 'modal-title', text: view.title?.text ?? '' }),
        stack.length > 1
          ? el('span', { class: 'stack-note', text: `${stack.length} views` })
          : null,
        el('button', {
          type: 'button',
          class: 'x',
          'aria-label': 'Close',
          text: '×',
          onclick: () => closeModal(view),
        }),
      ]),
      m.problem ? el('div', { class: 'modal-problem', role: 'alert', text: m.problem }) : null,
      content,
      el('footer', {}, [
        el('button', { type: 'button', text: closeLabel, onclick: () => closeModal(view) }),
        submit,
      ]),
    ],
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    submitModal(s, view, content);
  });
  form.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') closeModal(view);
  });
  // Slack redraws a view in place: the field being typed into keeps focus and caret.
  const typing = fresh ? null : focusOf(root);
  root.replaceChildren(el('div', { class: 'overlay' }, [form]));
  const first = content.querySelector('input, textarea, select');
  if (fresh && first instanceof HTMLElement) first.focus();
  else if (!fresh && typing) refocus(content, typing);
}

/**
 * The field with focus inside `root`: its block and action ids, and the caret.
 * @param {HTMLElement} root
 * @returns {Typing | null}
 */
function focusOf(root) {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !root.contains(active)) return null;
  const holder = active.closest('[data-action-id]');
  if (!(holder instanceof HTMLElement)) return null;
  const caret =
    (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) &&
    typeof active.selectionStart === 'number' &&
    typeof active.selectionEnd === 'number'
      ? { start: active.selectionStart, end: active.selectionEnd }
      : null;
  return { blockId: holder.dataset.blockId, actionId: holder.dataset.actionId, caret };
}

/**
 * Gives focus (and the caret) back to the same field in the redrawn view.
 * @param {HTMLElement} content
 * @param {Typing} typing
 */
function refocus(content, typing) {
  const holder = [...content.querySelectorAll('[data-action-id]')].find(
    (n) =>
      n instanceof HTMLElement &&
      n.dataset.blockId === typing.blockId &&
      n.dataset.actionId === typing.actionId,
  );
  const field = holder?.matches('input, textarea, select')
    ? holder
    : holder?.querySelector('input, textarea, select');
  if (!(field instanceof HTMLElement)) return;
  field.focus({ preventScroll: true });
  // Only text fields have a caret (an email or number input throws on setSelectionRange).
  const hasCaret =
    field instanceof HTMLTextAreaElement ||
    (field instanceof HTMLInputElement &&
      ['text', 'search', 'url', 'tel', 'password'].includes(field.type));
  if (typing.caret && hasCaret) {
    const end = Math.min(typing.caret.end, field.value.length);
    field.setSelectionRange(Math.min(typing.caret.start, end), end);
  }
}

/**
 * @param {PageSnapshot} s
 * @param {PageView} view
 * @param {HTMLElement} content
 */
async function submitModal(s, view, content) {
  const m = ui.modal;
  if (m.busy) return;
  m.busy = true;
  const values = collectValues(content);
  const result = await post('/sandbox/submit', { viewId: view.id, values });
  m.busy = false;
  if (m.id !== view.id) return;
  m.errors = result.errors ?? {};
  m.problem = result.errors ? null : (result.problem ?? null);
  if (!result.ok) {
    m.redraw = true;
    drawModal(ui.snap ?? s);
  }
}

/** @param {PageView} view */
function closeModal(view) {
  post('/sandbox/close', { viewId: view.id });
}
