// Link previews as Slack draws them (link-previews.ts on the server): under a message, a Work
// Object card for each link the app unfurled with an entity (its fallback blocks otherwise),
// and the side panel a card's title opens (entity.presentDetails).

import { el } from './dom.js';

const FIELD_LABELS = [
  ['status', 'Status'],
  ['assignee', 'Assignee'],
  ['due_date', 'Due'],
  ['priority', 'Priority'],
  ['created_by', 'Created by'],
];

function fieldText(field, userName) {
  if (!field) return '';
  if (field.user?.user_id) return userName(field.user.user_id);
  if (field.user?.text) return field.user.text;
  return field.value === undefined ? '' : String(field.value);
}

function facts(payload, userName, withCustom) {
  const rows = [];
  for (const [key, label] of FIELD_LABELS) {
    const text = fieldText(payload.fields?.[key], userName);
    if (text) rows.push(el('dt', { text: label }), el('dd', { text }));
  }
  if (withCustom) {
    for (const c of payload.custom_fields ?? []) {
      rows.push(el('dt', { text: c.label }), el('dd', { text: String(c.value ?? '') }));
    }
  }
  return el('dl', { class: 'wo-facts' }, rows);
}

/** The previews under message `m` (null when it has none). */
export function renderPreviews(m, helpers) {
  if (!m.unfurl) return null;
  const box = el('div', { class: 'previews' });
  for (const [url, unfurl] of Object.entries(m.unfurl.unfurls ?? {})) {
    const entity = (m.unfurl.entities ?? []).find((e) => e.app_unfurl_url === url);
    if (!entity) {
      box.append(
        el('div', { class: 'preview-blocks' }, [helpers.renderBlocks(unfurl.blocks ?? [])]),
      );
      continue;
    }
    const p = entity.entity_payload ?? {};
    const title = p.attributes?.title?.text ?? url;
    const id = p.attributes?.display_id;
    const actions = (p.actions?.primary_actions ?? []).map((a) =>
      el('button', {
        type: 'button',
        class: `wo-action${a.style === 'primary' ? ' primary' : ''}`,
        text: a.text,
        onclick: () => helpers.action(a.action_id, a.value),
      }),
    );
    const description = p.fields?.description?.value;
    box.append(
      el('section', { class: 'wo-card', 'aria-label': `Preview: ${title}` }, [
        el('div', { class: 'wo-product', text: p.attributes?.product_name ?? '' }),
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

/** The side panel (a Work Object's details), or nothing. */
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
  if (panel.error) {
    document.body.append(
      el('aside', { id: 'wo-panel', class: 'wo-panel', 'aria-label': 'Details' }, [
        close,
        el('p', { text: 'This item could not be found.' }),
      ]),
    );
    return;
  }
  const p = panel.entity_payload ?? {};
  const title = p.attributes?.title?.text ?? '';
  const id = p.attributes?.display_id;
  document.body.append(
    el('aside', { id: 'wo-panel', class: 'wo-panel', 'aria-label': `Details: ${title}` }, [
      close,
      el('div', { class: 'wo-product', text: p.attributes?.product_name ?? '' }),
      el('h2', { text: id ? `${id} ${title}` : title }),
      facts(p, helpers.userName, true),
      p.fields?.description?.value
        ? el('p', { class: 'wo-description', text: p.fields.description.value })
        : null,
      panel.url
        ? el('a', { href: panel.url, target: '_blank', rel: 'noreferrer', text: 'Open' })
        : null,
    ]),
  );
}
