// The page's calls to the sandbox server: a POST per thing a person does (its answer's problem
// shown as a toast, then a fresh snapshot), and the type-ahead's question for options.
// @ts-check

import { $, ui } from './session.js';

/**
 * @typedef {import('./types.js').BlockObj} BlockObj
 * @typedef {import('./types.js').Container} Container
 * @typedef {import('./types.js').ElementObj} ElementObj
 * @typedef {import('./types.js').InteractionAnswer} InteractionAnswer
 * @typedef {import('./types.js').SuggestAnswer} SuggestAnswer
 */

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/** @param {string} text */
export function toast(text) {
  const t = $('toast');
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    t.hidden = true;
  }, 5000);
}

/** @type {() => unknown} */
let afterPost = () => {};

/** What runs after every POST (app.js: fetch a fresh snapshot). */
export function onPosted(/** @type {() => unknown} */ then) {
  afterPost = then;
}

/** @param {unknown} e */
const why = (e) => (e instanceof Error ? e.message : String(e));

/**
 * POSTs `body` (with the person's id) to a /sandbox/* endpoint.
 * @param {string} path
 * @param {Record<string, unknown>} body
 * @returns {Promise<InteractionAnswer>}
 */
export async function post(path, body) {
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: ui.me, ...body }),
    });
    /** @type {InteractionAnswer} */
    const data = await res.json();
    if (data.problem && !data.errors) toast(data.problem);
    return data;
  } catch (e) {
    toast(`The sandbox server did not answer: ${why(e)}`);
    return { ok: false };
  } finally {
    afterPost();
  }
}

/**
 * What an external_select asks while the user types: the sandbox sends the app a signed
 * block_suggestion and answers with its options. No refresh: asking changes nothing.
 * @param {Container} container
 * @returns {(block: BlockObj, element: ElementObj, value: string) => Promise<SuggestAnswer>}
 */
export function suggester(container) {
  return async (block, element, value) => {
    try {
      const res = await fetch('/sandbox/suggest', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          user: ui.me,
          container,
          blockId: block.block_id,
          actionId: element.action_id,
          value,
        }),
      });
      return await res.json();
    } catch (e) {
      return { ok: false, problem: `The sandbox server did not answer: ${why(e)}` };
    }
  };
}
