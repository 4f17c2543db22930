// Reading JSON the app sent that the sandbox passes on unchecked (attachments, link previews,
// the side panel): each value is looked at for what it is, so an odd shape shows less, never
// breaks the page.
// @ts-check

/** @typedef {import('./types.js').BlockObj} BlockObj */

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
export function isObj(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The object, or an empty one.
 * @param {unknown} v
 * @returns {Record<string, unknown>}
 */
export const obj = (v) => (isObj(v) ? v : {});

/**
 * The string, or undefined.
 * @param {unknown} v
 */
export const str = (v) => (typeof v === 'string' ? v : undefined);

/**
 * The objects in a list (anything else: none).
 * @param {unknown} v
 * @returns {Record<string, unknown>[]}
 */
export const objects = (v) => (Array.isArray(v) ? v.filter(isObj) : []);

/**
 * The blocks in a list the app sent unchecked: objects with a type (drawing shows the rest, or
 * says what it cannot show).
 * @param {unknown} v
 * @returns {BlockObj[]}
 */
export function blocksIn(v) {
  return objects(v).filter(
    /** @returns {b is Record<string, unknown> & BlockObj} */ (b) => typeof b.type === 'string',
  );
}
