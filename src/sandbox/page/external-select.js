// A select menu with an external data source (external_select) as Slack's client has it: a
// type-ahead. Once `min_query_length` characters are typed (Slack's default is 3), the page asks
// the sandbox, which sends the app a signed block_suggestion and hands back its options or
// option groups to choose from. The chosen option's value is the element's value (data-value);
// its text stays in the box. Choosing sends block_actions when the block dispatches.

import { el, nextId } from './dom.js';

const DEFAULT_MIN_QUERY_LENGTH = 3;
/** Waits this long after the last keystroke, so a fast typist asks once, not per character. */
const DEBOUNCE_MS = 150;

/** Option texts by element and value: a redrawn modal shows a chosen option's text again. */
const labels = new Map();
const labelKey = (box, value) => `${box.dataset.blockId}/${box.dataset.actionId}/${value}`;

function plain(t) {
  return t && typeof t === 'object' ? String(t.text ?? '') : String(t ?? '');
}

/**
 * The type-ahead for one external_select. `attrs` are the element's data attributes (the box is
 * what collectValues reads); `id` goes on the text box, which the block's label points at.
 */
export function typeahead(block, e, ctx, { id, attrs, dispatches }) {
  const min =
    Number.isInteger(e.min_query_length) && e.min_query_length >= 0
      ? e.min_query_length
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
  const box = el('div', { ...attrs, class: 'bk-typeahead' }, [input, list, note]);
  let items = [];
  let active = -1;
  let asked = 0;
  let timer;

  const setOpen = (open) => {
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) input.removeAttribute('aria-activedescendant');
  };
  const highlight = (i) => {
    active = i;
    items.forEach(({ item }, j) => {
      item.setAttribute('aria-selected', String(j === i));
    });
    if (items[i]) input.setAttribute('aria-activedescendant', items[i].item.id);
  };
  const choose = (option) => {
    box.dataset.value = option.value;
    labels.set(labelKey(box, option.value), plain(option.text));
    input.value = plain(option.text);
    note.textContent = '';
    setOpen(false);
    ctx.markDirty?.(block.block_id, e.action_id);
    if (dispatches) ctx.onAction(block, e, option.value);
  };
  const show = (answer) => {
    list.replaceChildren();
    items = [];
    active = -1;
    if (!answer?.ok) {
      note.textContent = answer?.problem ?? 'The app did not offer options for that.';
      setOpen(false);
      return;
    }
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
  const ask = async (typed) => {
    const mine = ++asked;
    note.textContent = 'Searching…';
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

  if (e.initial_option) {
    box.dataset.value = e.initial_option.value;
    labels.set(labelKey(box, e.initial_option.value), plain(e.initial_option.text));
    input.value = plain(e.initial_option.text);
  }
  input.addEventListener('input', () => {
    // Typing replaces the choice, as in Slack's menu.
    if (box.dataset.value !== undefined) {
      delete box.dataset.value;
      ctx.markDirty?.(block.block_id, e.action_id);
    }
    typedChanged();
  });
  input.addEventListener('focus', () => {
    // With no minimum, Slack loads options as soon as the menu opens.
    if (min === 0 && box.dataset.value === undefined) typedChanged();
  });
  input.addEventListener('blur', () => {
    setOpen(false);
    // Leaving without choosing shows the choice there is (or nothing), not half-typed text.
    const value = box.dataset.value;
    input.value = value === undefined ? '' : (labels.get(labelKey(box, value)) ?? value);
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

/** Puts a value back into a type-ahead (after a redraw), with its text when known. */
export function applyTypeahead(box, value) {
  const input = box.querySelector('input');
  if (value === undefined || value === null || value === '') {
    delete box.dataset.value;
    if (input) input.value = '';
    return;
  }
  box.dataset.value = value;
  if (input) input.value = labels.get(labelKey(box, value)) ?? value;
}
