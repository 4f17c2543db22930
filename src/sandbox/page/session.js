// What the page remembers between redraws: who the person is, where they are, the last
// snapshot from /sandbox/state, what was drawn (so an unchanged part is not redrawn), and the
// open modal's own state (errors, problem, what was typed).
// @ts-check

/**
 * @typedef {import('./types.js').PageSnapshot} PageSnapshot
 * @typedef {import('./types.js').PageUser} PageUser
 * @typedef {{ kind: 'channel', id: string } | { kind: 'app', tab: 'home' | 'messages' }} Target
 * @typedef {{ id: string | null, hash: string | null, errors: Record<string, string>,
 *   problem: string | null, dirty: Set<string>, busy: boolean, redraw: boolean }} ModalState
 * @typedef {{ sidebar: string, header: string, conv: string, home: string, log: string }} Drawn
 */

/** @returns {Drawn} */
export const nothingDrawn = () => ({ sidebar: '', header: '', conv: '', home: '', log: '' });

/** @returns {ModalState} */
export const noModal = () => ({
  id: null,
  hash: null,
  errors: {},
  problem: null,
  dirty: new Set(),
  busy: false,
  redraw: false,
});

export const ui = {
  /** @type {string | null} */
  me: new URLSearchParams(location.search).get('user') || localStorage.getItem('sandbox.me'),
  /** @type {Target | null} */
  target: null,
  /** @type {PageSnapshot | null} */
  snap: null,
  loading: false,
  again: false,
  /** The newest message seen per person and channel ("U…:C…" → ts), for unread counts. */
  /** @type {Record<string, string>} */
  lastSeen: {},
  /** The message a permalink points at. */
  /** @type {string | null} */
  highlight: null,
  /** The thread the composer replies in. */
  /** @type {{ channel: string, ts: string } | null} */
  replyTo: null,
  drawn: nothingDrawn(),
  modal: noModal(),
};

/** @param {PageSnapshot} s */
export const me = (s) => s.users.find((u) => u.id === ui.me);

/**
 * @param {PageSnapshot} s
 * @param {string} id
 * @returns {PageUser | undefined}
 */
export const userById = (s, id) => s.users.find((u) => u.id === id);

/**
 * The channel the composer posts to: the open channel, or the DM with the app.
 * @param {PageSnapshot | null} s
 */
export function currentChannelId(s) {
  const t = ui.target;
  if (!t) return null;
  if (t.kind === 'channel') return t.id;
  return t.tab === 'messages' ? (s?.app.imChannel ?? null) : null;
}

/**
 * An element of index.html, of the kind the page expects there.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T, name: string }} kind
 * @returns {T}
 */
export function byId(id, kind) {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error(`index.html has no ${kind.name} #${id}`);
  return node;
}

/** @param {string} id */
export const $ = (id) => byId(id, HTMLElement);
