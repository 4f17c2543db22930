// The DOM helpers the page's modules share.

let uid = 0;
/** A page-unique id such as "field-12" (labels and ARIA attributes point at these). */
export const nextId = (prefix) => `${prefix}-${++uid}`;

/** A DOM element: attributes (class, html, text, on<event> handlers) and children. */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'html') node.innerHTML = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of [].concat(children)) if (c) node.append(c);
  return node;
}
