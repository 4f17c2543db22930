// A view's values as the page reads and restores them: every stateful element under a root,
// in the shape Slack's state.values expects ({ block_id: { action_id: raw } }).
// @ts-check

/**
 * @typedef {import('./types.js').RawValue} RawValue
 * @typedef {import('./types.js').RawValues} RawValues
 */

import { applyTypeahead, readTypeahead } from './external-select.js';

/**
 * Reads every stateful element under `root` into { block_id: { action_id: raw } }, where raw
 * is a string, a list of strings, or null — what /sandbox/submit expects.
 * @param {ParentNode} root
 * @returns {RawValues}
 */
export function collectValues(root) {
  /** @type {RawValues} */
  const values = {};
  for (const node of root.querySelectorAll('[data-stateful]')) {
    if (!(node instanceof HTMLElement)) continue;
    const blockId = node.dataset.blockId;
    const actionId = node.dataset.actionId;
    if (!blockId || !actionId) continue;
    /** @type {RawValue} */
    let raw;
    if (node instanceof HTMLSelectElement) {
      raw = node.multiple ? [...node.selectedOptions].map((o) => o.value) : node.value || null;
    } else if (node.classList.contains('bk-choices')) {
      const checked = [...node.querySelectorAll('input:checked')].map((i) =>
        i instanceof HTMLInputElement ? i.value : '',
      );
      raw = node.dataset.type === 'checkboxes' ? checked : (checked[0] ?? null);
    } else if (node.classList.contains('bk-typeahead')) {
      raw = readTypeahead(node);
    } else if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement) {
      raw = node.value === '' ? null : node.value;
    } else {
      continue;
    }
    values[blockId] ??= {};
    values[blockId][actionId] = raw;
  }
  return values;
}

/**
 * Puts previously entered values back (after views.update re-renders a modal).
 * @param {ParentNode} root
 * @param {RawValues} values
 * @param {Set<string> | null} [only] `block_id/action_id` of the values to put back (all: null)
 */
export function applyValues(root, values, only) {
  for (const node of root.querySelectorAll('[data-stateful]')) {
    if (!(node instanceof HTMLElement)) continue;
    const { blockId = '', actionId = '' } = node.dataset;
    if (only && !only.has(`${blockId}/${actionId}`)) continue;
    const raw = values[blockId]?.[actionId];
    if (raw === undefined) continue;
    const list = Array.isArray(raw) ? raw : raw === null ? [] : [raw];
    if (node instanceof HTMLSelectElement) {
      for (const o of node.options) o.selected = list.includes(o.value);
      if (!node.multiple && list.length === 0) node.value = '';
    } else if (node.classList.contains('bk-choices')) {
      for (const i of node.querySelectorAll('input')) i.checked = list.includes(i.value);
    } else if (node.classList.contains('bk-typeahead')) {
      applyTypeahead(node, list);
    } else if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement) {
      node.value = list.join('\n');
    }
  }
}
