// A conversation as Slack draws it: messages with their author, time, Block Kit, attachments,
// link previews and reactions, thread replies right under the message they answer, each
// message's ⋯ menu of message shortcuts, and the "Replying in thread" bar over the composer.
// @ts-check

import { blockCtx, mkCtx } from './block-context.js';
import { renderAttachments, renderBlocks } from './blocks.js';
import { post, suggester } from './calls.js';
import { el } from './dom.js';
import { emojify, mrkdwnToHtml } from './mrkdwn.js';
import { renderPreviews } from './previews.js';
import { $, byId, currentChannelId, me, ui, userById } from './session.js';

/**
 * @typedef {import('./types.js').Container} Container
 * @typedef {import('./types.js').PageMessage} PageMessage
 * @typedef {import('./types.js').PageSnapshot} PageSnapshot
 */

/**
 * A message's time as Slack shows it: the time today, else the day and the time.
 * @param {PageSnapshot} s
 * @param {string} ts
 */
function timeText(s, ts) {
  const date = new Date(Number(ts) * 1000);
  const tz = me(s)?.tz ?? 'UTC';
  const day = (/** @type {Date} */ d) => d.toLocaleDateString('en-CA', { timeZone: tz });
  const time = date.toLocaleTimeString('en-US', {
    timeZone: tz,
    hour: 'numeric',
    minute: '2-digit',
  });
  if (day(date) === day(new Date())) return time;
  const d = date.toLocaleDateString('en-US', { timeZone: tz, month: 'short', day: 'numeric' });
  return `${d}, ${time}`;
}

/**
 * Messages in the channel from others since the person last looked.
 * @param {PageSnapshot} s
 * @param {string} channelId
 */
export function unreadCount(s, channelId) {
  const seen = ui.lastSeen[`${ui.me}:${channelId}`] ?? '0';
  return (s.messages[channelId] ?? []).filter((m) => m.ts > seen && m.user !== ui.me).length;
}

/**
 * The ⋯ menu of the app's message shortcuts (none on ephemeral messages).
 * @param {PageSnapshot} s
 * @param {string} channelId
 * @param {PageMessage} m
 */
function messageMenu(s, channelId, m) {
  const shortcuts = s.app.shortcuts.filter((x) => x.type === 'message');
  if (shortcuts.length === 0 || m.ephemeral) return null;
  const menu = el('div', { class: 'menu', role: 'menu' });
  const details = el('details', { class: 'message-menu' }, [
    el('summary', { 'aria-label': 'Message shortcuts', title: 'More actions', text: '⋯' }),
    menu,
  ]);
  for (const x of shortcuts) {
    menu.append(
      el('button', {
        type: 'button',
        role: 'menuitem',
        text: x.name,
        onclick: () => {
          details.open = false;
          post('/sandbox/shortcut', { callbackId: x.callbackId, channel: channelId, ts: m.ts });
        },
      }),
    );
  }
  return details;
}

/**
 * The reactions under a message, as Slack shows them: each emoji with its count, and who
 * reacted on hover ("Worklink reacted with :memo:").
 * @param {PageSnapshot} s
 * @param {PageMessage} m
 */
function drawReactions(s, m) {
  if (m.reactions.length === 0) return null;
  return el(
    'ul',
    { class: 'reactions', 'aria-label': 'Reactions' },
    m.reactions.map((r) => {
      const who = r.users.map((id) => userById(s, id)?.realName ?? id).join(', ');
      return el(
        'li',
        {
          class: `reaction${ui.me && r.users.includes(ui.me) ? ' mine' : ''}`,
          title: `${who} reacted with :${r.name}:`,
          'aria-label': `${r.name}: ${who}`,
        },
        [
          el('span', { class: 'emoji', text: emojify(`:${r.name}:`) }),
          el('span', { class: 'count', text: String(r.users.length) }),
        ],
      );
    }),
  );
}

/**
 * @param {PageSnapshot} s
 * @param {string} channelId
 * @param {PageMessage} m
 */
function drawMessage(s, channelId, m) {
  const author = m.fromSlackbot ? null : userById(s, m.user);
  const name = m.fromSlackbot ? 'Slackbot' : m.fromBot ? s.app.name : (author?.realName ?? m.user);
  const color = m.fromSlackbot ? '8d8d8d' : m.fromBot ? '3aa3e3' : (author?.color ?? '777777');
  /** @type {Container} */
  const container = { type: 'message', channel: channelId, ts: m.ts };
  /** @type {import('./types.js').OnAction} */
  const onAction = (block, element, value) =>
    post('/sandbox/action', {
      container,
      blockId: block.block_id,
      actionId: element.action_id,
      value,
    });
  const ctx = blockCtx(s, 'message', onAction, { suggest: suggester(container) });
  const body = el('div', { class: 'message-body' });
  if (m.blocks) body.append(renderBlocks(m.blocks, ctx));
  else body.append(el('div', { class: 'bk-text', html: mrkdwnToHtml(m.text, mkCtx(s)) }));
  for (const a of renderAttachments(m.attachments, ctx)) body.append(a);
  const previews = renderPreviews(m, {
    renderBlocks: (blocks) => renderBlocks(blocks, ctx),
    userName: (id) => userById(s, id)?.realName ?? id,
    action: (actionId, value) => post('/sandbox/action', { container, actionId, value }),
    details: (url) => post('/sandbox/entity-details', { channel: channelId, ts: m.ts, url }),
  });
  if (previews) body.append(previews);
  const isReply = m.threadTs !== null && m.threadTs !== m.ts;
  return el(
    'article',
    {
      class: `message${m.ephemeral ? ' ephemeral' : ''}${isReply ? ' reply' : ''}${ui.highlight === m.ts ? ' highlight' : ''}`,
      'data-ts': m.ts,
      'aria-label': `Message from ${name}`,
    },
    [
      el('div', { class: 'avatar', style: `background:#${color}`, text: name.slice(0, 1) }),
      el('div', { class: 'message-main' }, [
        el('div', { class: 'message-meta' }, [
          el('b', { class: 'author', text: name }),
          m.fromBot || m.fromSlackbot ? el('span', { class: 'app-badge', text: 'APP' }) : null,
          el('time', { text: timeText(s, m.ts) }),
          m.edited ? el('span', { class: 'edited', text: '(edited)' }) : null,
          isReply ? el('span', { class: 'thread-note', text: '↳ reply in thread' }) : null,
          isReply || m.ephemeral || m.fromSlackbot
            ? null
            : el('button', {
                type: 'button',
                class: 'link reply-link',
                text: 'Reply in thread',
                onclick: () => {
                  ui.replyTo = { channel: channelId, ts: m.ts };
                  drawThreadBar(s);
                  $('composer-input').focus();
                },
              }),
        ]),
        m.ephemeral ? el('div', { class: 'ephemeral-note', text: 'Only visible to you' }) : null,
        body,
        drawReactions(s, m),
        m.ephemeral
          ? el('button', {
              type: 'button',
              class: 'link dismiss',
              text: 'Dismiss message',
              onclick: () => post('/sandbox/dismiss', { channel: channelId, ts: m.ts }),
            })
          : null,
      ]),
      messageMenu(s, channelId, m),
    ],
  );
}

/**
 * The open channel or DM; redrawn only when what it shows changed. It stays scrolled to the
 * bottom (or to a permalink's message) as new messages come.
 * @param {PageSnapshot} s
 */
export function drawConversation(s) {
  const channelId = currentChannelId(s) ?? '';
  const list = s.messages[channelId] ?? [];
  const key = JSON.stringify([ui.me, channelId, list, me(s)?.tz, s.users.length]);
  if (list.length > 0) ui.lastSeen[`${ui.me}:${channelId}`] = list[list.length - 1].ts;
  if (key === ui.drawn.conv) return;
  const box = $('conversation');
  const switched = !ui.drawn.conv.startsWith(JSON.stringify([ui.me, channelId]).slice(0, -1));
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  ui.drawn.conv = key;
  box.replaceChildren(
    ...(list.length === 0
      ? [el('p', { class: 'empty', text: 'No messages yet.' })]
      : threaded(list).map((m) => drawMessage(s, channelId, m))),
  );
  drawThreadBar(s);
  const channel = s.channels.find((c) => c.id === channelId);
  byId('composer-input', HTMLTextAreaElement).placeholder =
    channel?.kind === 'im' ? `Message ${s.app.name}` : `Message #${channel?.name ?? ''}`;
  const target = ui.highlight && box.querySelector(`[data-ts="${ui.highlight}"]`);
  if (target) target.scrollIntoView({ block: 'center' });
  else if (switched || nearBottom) box.scrollTop = box.scrollHeight;
}

/**
 * Replies right under the message they answer (Slack shows them in a thread), each in order.
 * @param {PageMessage[]} list
 */
function threaded(list) {
  const present = new Set(list.map((m) => m.ts));
  /** @type {Map<string, PageMessage[]>} */
  const replies = new Map();
  /** @type {PageMessage[]} */
  const top = [];
  for (const m of list) {
    if (m.threadTs && m.threadTs !== m.ts && present.has(m.threadTs)) {
      const thread = replies.get(m.threadTs) ?? [];
      thread.push(m);
      replies.set(m.threadTs, thread);
    } else top.push(m);
  }
  return top.flatMap((m) => [m, ...(replies.get(m.ts) ?? [])]);
}

/**
 * "Replying in thread · Cancel" above the composer while a thread is chosen here.
 * @param {PageSnapshot | null} s
 */
export function drawThreadBar(s) {
  const bar = $('composer-thread');
  const here = ui.replyTo && ui.replyTo.channel === currentChannelId(s);
  if (!here) ui.replyTo = null;
  bar.hidden = !here;
  bar.replaceChildren(
    ...(here
      ? [
          el('span', { text: '↳ Replying in thread' }),
          el('button', {
            type: 'button',
            class: 'link',
            text: 'Cancel',
            onclick: () => {
              ui.replyTo = null;
              drawThreadBar(s);
            },
          }),
        ]
      : []),
  );
}
