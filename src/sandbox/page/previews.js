// Link previews as Slack draws them (link-previews.ts on the server): under a message, a Work
// Object card for each link the app unfurled with an entity (its fallback blocks otherwise),
// and the side panel a card's title opens (entity.presentDetails). The app's JSON is passed on
// as it came, so it is read with care (app-json.js).
// @ts-check

import { blocksIn, isObj, obj, objects, str } from './app-json.js';
import { el } from './dom.js';

/**
 * @typedef {import('./types.js').BlockObj} BlockObj
 * @typedef {import('./types.js').PageMessage} PageMessage
 * @typedef {(id: string) => string} UserName
 */

/** @type {[string, string][]} */
const FIELD_LABELS = [
  ['status', 'Status'],
  ['assignee', 'Assignee'],
  ['due_date', 'Due'],
  ['priority', 'Priority'],
  ['created_by', 'Created by'],
];

/**
 * A Work Object field's text: a person's name, or its value.
 * @param {unknown} value
 * @param {UserName} userName
 */
function fieldText(value, userName) {
  const field = obj(value);
  const user = obj(field.user);
  const userId = str(user.user_id);
  if (userId) return userName(userId);
  const userText = str(user.text);
  if (userText) return userText;
  return field.value === undefined || field.value === null ? '' : String(field.value);
}

/**
 * The entity's facts as a definition list (with its custom fields in the side panel).
 * @param {Record<string, unknown>} payload
 * @param {UserName} userName
 * @param {boolean} withCustom
 */
function facts(payload, userName, withCustom) {
  /** @type {HTMLElement[]} */
  const rows = [];
  const fields = obj(payload.fields);
  for (const [key, label] of FIELD_LABELS) {
    const text = fieldText(fields[key], userName);
    if (text) rows.push(el('dt', { text: label }), el('dd', { text }));
  }
  if (withCustom) {
    for (const c of objects(payload.custom_fields)) {
      const value = c.value === undefined || c.value === null ? '' : String(c.value);
      rows.push(el('dt', { text: str(c.label) ?? '' }), el('dd', { text: value }));
    }
  }
  return el('dl', { class: 'wo-facts' }, rows);
}

/**
 * What a card and the panel show of an entity: title, display id, product, description.
 * @param {Record<string, unknown>} payload
 */
function headline(payload) {
  const attributes = obj(payload.attributes);
  const description = obj(obj(payload.fields).description).value;
  return {
    title: str(obj(attributes.title).text),
    id: str(attributes.display_id),
    product: str(attributes.product_name) ?? '',
    description: description === undefined || description === null ? '' : String(description),
  };
}

/**
 * The previews under message `m` (null when it has none).
 * @param {PageMessage} m
 * @param {{ renderBlocks: (blocks: BlockObj[]) => Node, userName: UserName,
 *   action: (actionId: string, value: string | undefined) => unknown,
 *   details: (url: string) => unknown }} helpers
 */
export function renderPreviews(m, helpers) {
  if (!m.unfurl) return null;
  const box = el('div', { class: 'previews' });
  for (const [url, unfurl] of Object.entries(m.unfurl.unfurls)) {
    const entity = m.unfurl.entities.find((e) => e.app_unfurl_url === url);
    if (!entity) {
      const blocks = blocksIn(obj(unfurl).blocks);
      box.append(el('div', { class: 'preview-blocks' }, [helpers.renderBlocks(blocks)]));
      continue;
    }
    const p = obj(entity.entity_payload);
    const { title = url, id, product, description } = headline(p);
    const actions = objects(obj(p.actions).primary_actions).map((a) =>
      el('button', {
        type: 'button',
        class: `wo-action${a.style === 'primary' ? ' primary' : ''}`,
        text: str(a.text) ?? '',
        onclick: () => helpers.action(str(a.action_id) ?? '', str(a.value)),
      }),
    );
    box.append(
      el('section', { class: 'wo-card', 'aria-label': `Preview: ${title}` }, [
        el('div', { class: 'wo-product', text: product }),
        el('button', {
          type: 'button',
          class: 'wo-title',
          text: id ? `${id} ${title}` : title,
          title: 'Show the details',
          onclick: () => helpers.details(url),
        }),
        facts(p, helpers.userName, false),
        description ? el('p', { class: 'wo-description', text: description }) : null,
        actions.length ? el('div', { class: 'wo-actions' }, actions) : null,
      ]),
    );
  }
  return box;
}

/**
 * The side panel (a Work Object's details), or nothing.
 * @param {Record<string, unknown> | null} panel
 * @param {{ userName: UserName, close: () => unknown }} helpers
 */
export function drawPanel(panel, helpers) {
  document.getElementById('wo-panel')?.remove();
  if (!panel) return;
  const close = el('button', {
    type: 'button',
    class: 'x',
    'aria-label': 'Close',
    text: '×',
    onclick: () => helpers.close(),
  });
  if (panel.error !== undefined || !isObj(panel.entity_payload)) {
    document.body.append(
      el('aside', { id: 'wo-panel', class: 'wo-panel', 'aria-label': 'Details' }, [
        close,
        el('p', { text: 'This item could not be found.' }),
      ]),
    );
    return;
  }
  const p = panel.entity_payload;
  const { title = '', id, product, description } = headline(p);
  const url = str(panel.url);
  document.body.append(
    el('aside', { id: 'wo-panel', class: 'wo-panel', 'aria-label': `Details: ${title}` }, [
      close,
      el('div', { class: 'wo-product', text: product }),
      el('h2', { text: id ? `${id} ${title}` : title }),
      facts(p, helpers.userName, true),
      description ? el('p', { class: 'wo-description', text: description }) : null,
      url ? el('a', { href: url, target: '_blank', rel: 'noreferrer', text: 'Open' }) : null,
    ]),
  );
}
