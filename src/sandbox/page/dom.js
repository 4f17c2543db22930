// The DOM helpers the page's modules share.
// @ts-check

let uid = 0;
/** A page-unique id such as "field-12" (labels and ARIA attributes point at these). */
export const nextId = (/** @type {string} */ prefix) => `${prefix}-${++uid}`;

/**
 * @typedef {string | number | boolean | null | undefined | (() => unknown)} AttrValue
 * @typedef {Node | string | null | undefined | false} Child
 */

/**
 * A DOM element: attributes (class, html, text, on<event> handlers) and children. Its type is
 * the tag's (el('input') is an HTMLInputElement).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttrValue>} [attrs]
 * @param {Child | Child[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') {
      if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    } else if (k === 'class') node.className = String(v);
    else if (k === 'html') node.innerHTML = String(v);
    else if (k === 'text') node.textContent = String(v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of Array.isArray(children) ? children : [children]) if (c) node.append(c);
  return node;
}
