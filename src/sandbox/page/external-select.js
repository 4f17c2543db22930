// Select menus with an external data source (external_select, multi_external_select) as Slack's
// client has them: a type-ahead. Once `min_query_length` characters are typed (Slack's default
// is 3), the page asks the sandbox, which sends the app a signed block_suggestion and hands back
// its options or option groups to choose from. The chosen values are kept on the box
// (readTypeahead); a single choice's text stays in the text box, multiple choices show as
// removable chips. A change sends block_actions when the block dispatches.
// @ts-check

/**
 * @typedef {import('./types.js').BlockObj} BlockObj
 * @typedef {import('./types.js').ElementObj} ElementObj
 * @typedef {import('./types.js').OptionObj} OptionObj
 * @typedef {import('./types.js').BlockContext} BlockContext
 * @typedef {import('./types.js').SuggestAnswer} SuggestAnswer
 * @typedef {import('./types.js').TextObj} TextObj
 */

import { el, nextId } from './dom.js';

const DEFAULT_MIN_QUERY_LENGTH = 3;
/** Waits this long after the last keystroke, so a fast typist asks once, not per character. */
const DEBOUNCE_MS = 150;

/** Option texts by element and value: a redrawn modal shows a chosen option's text again. */
/** @type {Map<string, string>} */
const labels = new Map();
const labelKey = (/** @type {HTMLElement} */ box, /** @type {string} */ value) =>
  `${box.dataset.blockId}/${box.dataset.actionId}/${value}`;
const labelOf = (/** @type {HTMLElement} */ box, /** @type {string} */ value) =>
  labels.get(labelKey(box, value)) ?? value;

/** @param {TextObj | string | undefined} t */
function plain(t) {
  return t && typeof t === 'object' ? String(t.text ?? '') : String(t ?? '');
}

/**
 * The chosen values of a type-ahead box (always a list).
 * @param {HTMLElement} box
 * @returns {string[]}
 */
function chosenOf(box) {
  try {
    /** @type {unknown} */
    const list = JSON.parse(box.dataset.values ?? '[]');
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    // Only this module writes the attribute; anything else reads as nothing chosen.
    return [];
  }
}

/**
 * What collectValues sends for a type-ahead: a value or null; a list for the multi kind.
 * @param {HTMLElement} box
 */
export function readTypeahead(box) {
  const values = chosenOf(box);
  return box.dataset.type === 'multi_external_select' ? values : (values[0] ?? null);
}

/**
 * Shows `values` as the box's choice: the text box (single) or the chips (multi).
 * @param {HTMLElement} box
 * @param {string[]} values
 */
function showChosen(box, values) {
  box.dataset.values = JSON.stringify(values);
  const input = box.querySelector('input');
  const chips = box.querySelector('.bk-typeahead-chips');
  if (!chips) {
    if (input) input.value = values[0] === undefined ? '' : labelOf(box, values[0]);
    return;
  }
  chips.replaceChildren(
    ...values.map((v) =>
      el('li', { class: 'bk-chip' }, [
        el('span', { text: labelOf(box, v) }),
        el('button', {
          type: 'button',
          class: 'bk-chip-remove',
          'aria-label': `Remove ${labelOf(box, v)}`,
          text: '×',
          onclick: () => box.dispatchEvent(new CustomEvent('typeahead-remove', { detail: v })),
        }),
      ]),
    ),
  );
}

/**
 * Puts values back into a type-ahead (after a redraw), with their texts when known.
 * @param {HTMLElement} box
 * @param {string[]} values
 */
export function applyTypeahead(box, values) {
  showChosen(box, values);
}

/**
 * The type-ahead for one external_select or multi_external_select. `attrs` are the element's
 * data attributes (the box is what collectValues reads); `id` goes on the text box, which the
 * block's label points at.
 * @param {BlockObj} block
 * @param {ElementObj} e
 * @param {BlockContext} ctx
 * @param {{ id: string, attrs: Record<string, string | boolean | undefined>,
 *   dispatches: boolean }} how
 */
export function typeahead(block, e, ctx, { id, attrs, dispatches }) {
  const multiple = e.type === 'multi_external_select';
  const askedMin = e.min_query_length;
  const min =
    typeof askedMin === 'number' && Number.isInteger(askedMin) && askedMin >= 0
      ? askedMin
      : DEFAULT_MIN_QUERY_LENGTH;
  const listId = `${id}-options`;
  const input = el('input', {
    id,
    class: 'bk-typeahead-input',
    type: 'text',
    role: 'combobox',
    autocomplete: 'off',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': listId,
    placeholder: plain(e.placeholder) || 'Type to search…',
  });
  const list = el('ul', { id: listId, class: 'bk-typeahead-list', role: 'listbox', hidden: true });
  const note = el('div', { class: 'bk-typeahead-note', 'aria-live': 'polite' });
  const chips = multiple ? el('ul', { class: 'bk-typeahead-chips', 'aria-label': 'Chosen' }) : null;
  const box = el('div', { ...attrs, class: 'bk-typeahead' }, [chips, input, list, note]);
  /** @type {{ item: HTMLElement, option: OptionObj }[]} */
  let items = [];
  let active = -1;
  let asked = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  const setOpen = (/** @type {boolean} */ open) => {
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) input.removeAttribute('aria-activedescendant');
  };
  const highlight = (/** @type {number} */ i) => {
    active = i;
    items.forEach(({ item }, j) => {
      item.setAttribute('aria-selected', String(j === i));
    });
    if (items[i]) input.setAttribute('aria-activedescendant', items[i].item.id);
  };
  const changed = (/** @type {string[]} */ values) => {
    showChosen(box, values);
    ctx.markDirty?.(block.block_id, e.action_id);
    if (dispatches) ctx.onAction(block, e, multiple ? values : (values[0] ?? null));
  };
  const choose = (/** @type {OptionObj} */ option) => {
    labels.set(labelKey(box, option.value), plain(option.text));
    note.textContent = '';
    setOpen(false);
    if (!multiple) return changed([option.value]);
    input.value = '';
    const values = chosenOf(box);
    if (values.includes(option.value)) return;
    const max = e.max_selected_items;
    if (typeof max === 'number' && Number.isInteger(max) && values.length >= max) {
      note.textContent = `Choose at most ${max}.`;
      return;
    }
    changed([...values, option.value]);
  };
  const show = (/** @type {SuggestAnswer} */ answer) => {
    list.replaceChildren();
    items = [];
    active = -1;
    if (!answer?.ok) {
      note.textContent = answer?.problem ?? 'The app did not offer options for that.';
      setOpen(false);
      return;
    }
    /** @type {{ label?: TextObj, options: OptionObj[] }[]} */
    const groups = answer.option_groups ?? [{ options: answer.options ?? [] }];
    for (const g of groups) {
      if (g.label) {
        list.append(
          el('li', { class: 'bk-typeahead-group', role: 'presentation' }, [plain(g.label)]),
        );
      }
      for (const o of g.options ?? []) {
        const item = el('li', { id: nextId('option'), role: 'option', 'aria-selected': 'false' }, [
          el('span', { text: plain(o.text) }),
          o.description ? el('small', { text: plain(o.description) }) : null,
        ]);
        // mousedown, not click: the text box keeps its focus, so its blur does not undo this.
        item.addEventListener('mousedown', (ev) => {
          ev.preventDefault();
          choose(o);
        });
        list.append(item);
        items.push({ item, option: o });
      }
    }
    note.textContent = items.length === 0 ? 'No matches.' : '';
    setOpen(items.length > 0);
  };
  const ask = async (/** @type {string} */ typed) => {
    const mine = ++asked;
    note.textContent = 'Searching…';
    /** @type {SuggestAnswer} */
    const answer = ctx.suggest
      ? await ctx.suggest(block, e, typed)
      : { ok: false, problem: 'Options cannot be loaded here.' };
    // Only the answer to what is typed now counts; an earlier, slower one is dropped.
    if (mine === asked && box.isConnected) show(answer);
  };
  const typedChanged = () => {
    clearTimeout(timer);
    const typed = input.value;
    if (typed.length < min) {
      asked += 1;
      setOpen(false);
      note.textContent = `Type at least ${min} character${min === 1 ? '' : 's'}.`;
      return;
    }
    timer = setTimeout(() => ask(typed), DEBOUNCE_MS);
  };

  const initial = multiple ? (e.initial_options ?? []) : e.initial_option ? [e.initial_option] : [];
  for (const o of initial) labels.set(labelKey(box, o.value), plain(o.text));
  showChosen(
    box,
    initial.map((o) => o.value),
  );
  box.addEventListener('typeahead-remove', (ev) => {
    const removed = ev instanceof CustomEvent ? ev.detail : undefined;
    changed(chosenOf(box).filter((v) => v !== removed));
  });
  input.addEventListener('input', () => {
    // Typing replaces a single choice, as in Slack's menu.
    if (!multiple && chosenOf(box).length > 0) {
      box.dataset.values = '[]';
      ctx.markDirty?.(block.block_id, e.action_id);
    }
    typedChanged();
  });
  input.addEventListener('focus', () => {
    // With no minimum, Slack loads options as soon as the menu opens.
    if (min === 0 && (multiple || chosenOf(box).length === 0)) typedChanged();
  });
  input.addEventListener('blur', () => {
    setOpen(false);
    // Leaving without choosing shows the choice there is, not half-typed text.
    const values = chosenOf(box);
    input.value = multiple || values[0] === undefined ? '' : labelOf(box, values[0]);
    note.textContent = '';
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      if (items.length === 0) return;
      setOpen(true);
      const step = ev.key === 'ArrowDown' ? 1 : -1;
      highlight((active + step + items.length) % items.length);
    } else if (ev.key === 'Enter') {
      // Enter chooses; it never submits the modal from inside the menu.
      ev.preventDefault();
      const pick = items[active] ?? (items.length === 1 ? items[0] : undefined);
      if (pick && !list.hidden) choose(pick.option);
    } else if (ev.key === 'Escape' && !list.hidden) {
      ev.stopPropagation();
      setOpen(false);
    }
  });
  return box;
}
