// The sandbox page: one user's view of the workspace. It draws a snapshot from
// /sandbox/state, redraws when /sandbox/stream says something changed, and turns clicks and
// typing into /sandbox/* calls, which the server turns into signed requests to the app.

import {
  applyValues,
  collectValues,
  el,
  renderAttachments,
  renderBlocks,
  textHtml,
} from './blocks.js';
import { emojify, mrkdwnToHtml } from './mrkdwn.js';
import { drawPanel, renderPreviews } from './previews.js';

const $ = (id) => document.getElementById(id);

const ui = {
  me: new URLSearchParams(location.search).get('user') || localStorage.getItem('sandbox.me'),
  /** { kind: 'channel', id } or { kind: 'app', tab: 'home' | 'messages' } */
  target: null,
  snap: null,
  loading: false,
  again: false,
  lastSeen: {},
  highlight: null,
  /** The thread the composer replies in: { channel, ts }, or null. */
  replyTo: null,
  drawn: { sidebar: '', header: '', conv: '', home: '', log: '' },
  modal: { id: null, hash: null, errors: {}, problem: null, dirty: new Set(), busy: false },
};

// ---------- helpers ----------

let toastTimer;
function toast(text) {
  const t = $('toast');
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    t.hidden = true;
  }, 5000);
}

async function post(path, body) {
  try {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: ui.me, ...body }),
    });
    const data = await res.json();
    if (data.problem && !data.errors) toast(data.problem);
    return data;
  } catch (e) {
    toast(`The sandbox server did not answer: ${e.message}`);
    return { ok: false };
  } finally {
    refresh();
  }
}

/**
 * What an external_select asks while the user types: the sandbox sends the app a signed
 * block_suggestion and answers with its options. No refresh: asking changes nothing.
 */
function suggester(container) {
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
      return { ok: false, problem: `The sandbox server did not answer: ${e.message}` };
    }
  };
}

const me = () => ui.snap?.users.find((u) => u.id === ui.me);
const userById = (id) => ui.snap?.users.find((u) => u.id === id);

function mkCtx() {
  const users = {};
  for (const u of ui.snap.users) users[u.id] = u.realName;
  const channels = {};
  for (const c of ui.snap.channels) if (c.kind === 'channel') channels[c.id] = c.name;
  return { users, channels, tz: me()?.tz ?? 'UTC' };
}

function confirmDialog(c) {
  return new Promise((resolve) => {
    const done = (answer) => {
      overlay.remove();
      resolve(answer);
    };
    const overlay = el('div', { class: 'overlay confirm' }, [
      el(
        'div',
        { class: 'modal small', role: 'alertdialog', 'aria-label': c.title?.text ?? 'Confirm' },
        [
          el('header', {}, [el('h2', { text: c.title?.text ?? 'Are you sure?' })]),
          el('div', { class: 'modal-body', html: textHtml(c.text, { mk: mkCtx() }) }),
          el('footer', {}, [
            el('button', {
              type: 'button',
              text: c.deny?.text ?? 'Cancel',
              onclick: () => done(false),
            }),
            el('button', {
              type: 'button',
              class: c.style === 'danger' ? 'danger' : 'primary',
              text: c.confirm?.text ?? 'Yes',
              onclick: () => done(true),
            }),
          ]),
        ],
      ),
    ]);
    document.body.append(overlay);
  });
}

function blockCtx(surface, onAction, extra = {}) {
  return {
    surface,
    mk: mkCtx(),
    people: ui.snap.users.filter((u) => !u.isBot).map((u) => ({ id: u.id, realName: u.realName })),
    channelList: ui.snap.channels
      .filter((c) => c.kind === 'channel')
      .map((c) => ({ id: c.id, label: `#${c.name}` })),
    confirm: confirmDialog,
    onAction,
    ...extra,
  };
}

function timeText(ts) {
  const date = new Date(Number(ts) * 1000);
  const tz = me()?.tz ?? 'UTC';
  const day = (d) => d.toLocaleDateString('en-CA', { timeZone: tz });
  const time = date.toLocaleTimeString('en-US', {
    timeZone: tz,
    hour: 'numeric',
    minute: '2-digit',
  });
  if (day(date) === day(new Date())) return time;
  const d = date.toLocaleDateString('en-US', { timeZone: tz, month: 'short', day: 'numeric' });
  return `${d}, ${time}`;
}

function currentChannelId() {
  if (!ui.target) return null;
  if (ui.target.kind === 'channel') return ui.target.id;
  return ui.target.tab === 'messages' ? ui.snap?.app.imChannel : null;
}

// ---------- navigation ----------

function parseLocation() {
  const archive = /^\/archives\/([A-Z0-9]+)\/p(\d{10})(\d{6})/.exec(location.pathname);
  if (archive) {
    ui.highlight = `${archive[2]}.${archive[3]}`;
    history.replaceState(null, '', `/#/${archive[1]}`);
  }
  const hash = location.hash.replace(/^#\/?/, '');
  if (hash === 'app/home' || hash === 'app/messages') {
    ui.target = { kind: 'app', tab: hash.slice(4) };
  } else if (hash) {
    ui.target = { kind: 'channel', id: hash };
  }
}

function go(target) {
  const hash = target.kind === 'app' ? `#/app/${target.tab}` : `#/${target.id}`;
  if (location.hash !== hash) history.pushState(null, '', hash);
  ui.target = target;
  if (target.kind === 'app') post('/sandbox/home', { tab: target.tab });
  render();
}

// ---------- drawing ----------

function unreadCount(channelId) {
  const seen = ui.lastSeen[`${ui.me}:${channelId}`] ?? '0';
  return (ui.snap.messages[channelId] ?? []).filter((m) => m.ts > seen && m.user !== ui.me).length;
}

function drawSidebar() {
  const s = ui.snap;
  const channels = s.channels.filter((c) => c.kind === 'channel');
  const unread = Object.fromEntries(s.channels.map((c) => [c.id, unreadCount(c.id)]));
  const key = JSON.stringify([
    s.team.name,
    s.users,
    channels,
    ui.me,
    ui.target,
    unread,
    s.app.name,
  ]);
  if (key === ui.drawn.sidebar) return;
  ui.drawn.sidebar = key;
  $('team-name').textContent = s.team.name;
  const sw = $('user-switch');
  sw.replaceChildren(
    ...s.users
      .filter((u) => !u.isBot)
      .map((u) => el('option', { value: u.id, selected: u.id === ui.me }, [u.realName])),
  );
  const item = (label, active, count, onclick, title) =>
    el('li', {}, [
      el(
        'button',
        {
          type: 'button',
          class: `nav-item${active ? ' active' : ''}${count ? ' unread' : ''}`,
          onclick,
          title,
        },
        [
          el('span', { text: label }),
          count ? el('span', { class: 'count', text: String(count) }) : null,
        ],
      ),
    ]);
  $('channel-list').replaceChildren(
    ...channels.map((c) =>
      item(
        `# ${c.name}`,
        ui.target?.kind === 'channel' && ui.target.id === c.id,
        unread[c.id],
        () => go({ kind: 'channel', id: c.id }),
        c.topic,
      ),
    ),
  );
  const appTab = s.app.homeTab ? 'home' : 'messages';
  $('app-list').replaceChildren(
    item(s.app.name, ui.target?.kind === 'app', s.app.imChannel ? unread[s.app.imChannel] : 0, () =>
      go({ kind: 'app', tab: appTab }),
    ),
  );
}

function drawHeader() {
  const s = ui.snap;
  const t = ui.target;
  const channel = t.kind === 'channel' ? s.channels.find((c) => c.id === t.id) : null;
  const key = JSON.stringify([t, s.app, channel?.name]);
  if (key === ui.drawn.header) return;
  ui.drawn.header = key;
  $('conv-title').textContent = t.kind === 'app' ? s.app.name : `# ${channel?.name ?? ''}`;
  const tabs = $('tabs');
  tabs.hidden = t.kind !== 'app';
  const tab = (name, label, enabled) =>
    enabled
      ? el('button', {
          type: 'button',
          role: 'tab',
          'aria-selected': String(t.kind === 'app' && t.tab === name),
          text: label,
          onclick: () => go({ kind: 'app', tab: name }),
        })
      : null;
  tabs.replaceChildren(
    ...[tab('home', 'Home', s.app.homeTab), tab('messages', 'Messages', s.app.messagesTab)].filter(
      Boolean,
    ),
  );
  $('shortcuts').replaceChildren(
    ...s.app.shortcuts
      .filter((x) => x.type === 'global')
      .map((x) =>
        el('button', {
          type: 'button',
          class: 'shortcut',
          title: x.description,
          text: `⚡ ${x.name}`,
          onclick: () => post('/sandbox/shortcut', { callbackId: x.callbackId }),
        }),
      ),
  );
}

function messageMenu(channelId, m) {
  const shortcuts = ui.snap.app.shortcuts.filter((x) => x.type === 'message');
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

function drawMessage(channelId, m) {
  const s = ui.snap;
  const author = m.fromSlackbot ? null : userById(m.user);
  const name = m.fromSlackbot ? 'Slackbot' : m.fromBot ? s.app.name : (author?.realName ?? m.user);
  const color = m.fromSlackbot ? '8d8d8d' : m.fromBot ? '3aa3e3' : (author?.color ?? '777777');
  const container = { type: 'message', channel: channelId, ts: m.ts };
  const onAction = (block, element, value) =>
    post('/sandbox/action', {
      container,
      blockId: block.block_id,
      actionId: element.action_id,
      value,
    });
  const ctx = blockCtx('message', onAction, { suggest: suggester(container) });
  const body = el('div', { class: 'message-body' });
  if (m.blocks) body.append(renderBlocks(m.blocks, ctx));
  else body.append(el('div', { class: 'bk-text', html: mrkdwnToHtml(m.text, mkCtx()) }));
  for (const a of renderAttachments(m.attachments, ctx)) body.append(a);
  const previews = renderPreviews(m, {
    renderBlocks: (blocks) => renderBlocks(blocks, ctx),
    userName: (id) => userById(id)?.realName ?? id,
    action: (actionId, value) => post('/sandbox/action', { container, actionId, value }),
    details: (url) => post('/sandbox/entity-details', { channel: channelId, ts: m.ts, url }),
  });
  if (previews) body.append(previews);
  const isReply = m.threadTs && m.threadTs !== m.ts;
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
          el('time', { text: timeText(m.ts) }),
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
                  drawThreadBar();
                  $('composer-input').focus();
                },
              }),
        ]),
        m.ephemeral ? el('div', { class: 'ephemeral-note', text: 'Only visible to you' }) : null,
        body,
        drawReactions(m),
        m.ephemeral
          ? el('button', {
              type: 'button',
              class: 'link dismiss',
              text: 'Dismiss message',
              onclick: () => post('/sandbox/dismiss', { channel: channelId, ts: m.ts }),
            })
          : null,
      ]),
      messageMenu(channelId, m),
    ],
  );
}

/**
 * The reactions under a message, as Slack shows them: each emoji with its count, and who
 * reacted on hover ("Worklink reacted with :memo:").
 */
function drawReactions(m) {
  if (!m.reactions?.length) return null;
  return el(
    'ul',
    { class: 'reactions', 'aria-label': 'Reactions' },
    m.reactions.map((r) => {
      const who = r.users.map((id) => userById(id)?.realName ?? id).join(', ');
      return el(
        'li',
        {
          class: `reaction${r.users.includes(ui.me) ? ' mine' : ''}`,
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

function drawConversation() {
  const s = ui.snap;
  const onHome = ui.target.kind === 'app' && ui.target.tab === 'home';
  $('conversation').hidden = onHome;
  $('composer').hidden = onHome;
  $('home').hidden = !onHome;
  if (onHome) return drawHome();
  const channelId = currentChannelId();
  const list = s.messages[channelId] ?? [];
  const key = JSON.stringify([ui.me, channelId, list, me()?.tz, s.users.length]);
  if (list.length > 0) ui.lastSeen[`${ui.me}:${channelId}`] = list[list.length - 1].ts;
  if (key === ui.drawn.conv) return;
  const box = $('conversation');
  const switched = !ui.drawn.conv.startsWith(JSON.stringify([ui.me, channelId]).slice(0, -1));
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  ui.drawn.conv = key;
  box.replaceChildren(
    ...(list.length === 0
      ? [el('p', { class: 'empty', text: 'No messages yet.' })]
      : threaded(list).map((m) => drawMessage(channelId, m))),
  );
  drawThreadBar();
  const channel = s.channels.find((c) => c.id === channelId);
  $('composer-input').placeholder =
    channel?.kind === 'im' ? `Message ${s.app.name}` : `Message #${channel?.name ?? ''}`;
  const target = ui.highlight && box.querySelector(`[data-ts="${ui.highlight}"]`);
  if (target) target.scrollIntoView({ block: 'center' });
  else if (switched || nearBottom) box.scrollTop = box.scrollHeight;
}

/** Replies right under the message they answer (Slack shows them in a thread), each in order. */
function threaded(list) {
  const present = new Set(list.map((m) => m.ts));
  const replies = new Map();
  const top = [];
  for (const m of list) {
    if (m.threadTs && m.threadTs !== m.ts && present.has(m.threadTs)) {
      if (!replies.has(m.threadTs)) replies.set(m.threadTs, []);
      replies.get(m.threadTs).push(m);
    } else top.push(m);
  }
  return top.flatMap((m) => [m, ...(replies.get(m.ts) ?? [])]);
}

/** "Replying in thread · Cancel" above the composer while a thread is chosen here. */
function drawThreadBar() {
  const bar = $('composer-thread');
  const here = ui.replyTo && ui.replyTo.channel === currentChannelId();
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
              drawThreadBar();
            },
          }),
        ]
      : []),
  );
}

/** A block action inside a view (Home tab or modal), sent with the view's current values. */
function viewAction(viewId, valuesRoot) {
  return (block, element, value) =>
    post('/sandbox/action', {
      container: { type: 'view', viewId },
      blockId: block.block_id,
      actionId: element.action_id,
      value,
      viewValues: collectValues(valuesRoot()),
    });
}

function drawHome() {
  const view = ui.snap.home;
  const key = JSON.stringify([ui.me, view?.id, view?.hash]);
  if (key === ui.drawn.home) return;
  ui.drawn.home = key;
  const box = $('home');
  if (!view) {
    box.replaceChildren(
      el('p', { class: 'empty', text: `${ui.snap.app.name} has not published a Home tab yet.` }),
    );
    return;
  }
  const onAction = viewAction(view.id, () => box);
  const suggest = suggester({ type: 'view', viewId: view.id });
  box.replaceChildren(renderBlocks(view.blocks, blockCtx('home', onAction, { suggest })));
}

function drawModal() {
  const stack = ui.snap.modals;
  const view = stack[stack.length - 1];
  const root = $('modal-root');
  const m = ui.modal;
  if (!view) {
    root.replaceChildren();
    Object.assign(m, { id: null, hash: null, errors: {}, problem: null, dirty: new Set() });
    return;
  }
  if (view.id === m.id && view.hash === m.hash && !m.redraw) return;
  const body = root.querySelector('.modal-body');
  const before = body ? collectValues(body) : {};
  let keep = null;
  if (view.id !== m.id) {
    Object.assign(m, { errors: {}, problem: null, dirty: new Set() });
  } else if (view.hash !== m.hash) {
    // views.update: Slack keeps what the user typed into inputs that are still there.
    m.errors = {};
    m.problem = null;
    keep = m.dirty;
  } else {
    keep = new Set(
      Object.entries(before).flatMap(([b, a]) => Object.keys(a).map((k) => `${b}/${k}`)),
    );
  }
  const fresh = view.id !== m.id;
  m.id = view.id;
  m.hash = view.hash;
  m.redraw = false;

  const onAction = viewAction(view.id, () => root.querySelector('.modal-body'));
  const markDirty = (blockId, actionId) => m.dirty.add(`${blockId}/${actionId}`);
  const suggest = suggester({ type: 'view', viewId: view.id });
  const content = el('div', { class: 'modal-body' }, [
    renderBlocks(
      view.blocks,
      blockCtx('modal', onAction, { errors: m.errors, markDirty, suggest }),
    ),
  ]);
  if (keep) applyValues(content, before, keep);
  const closeLabel = view.close?.text ?? (stack.length > 1 ? 'Back' : 'Cancel');
  const submit = view.submit
    ? el('button', { type: 'submit', class: 'primary', text: view.submit.text, disabled: m.busy })
    : null;
  const form = el(
    'form',
    {
      class: 'modal',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'modal-title',
      'data-view-id': view.id,
      'data-callback-id': view.callback_id,
      novalidate: true,
    },
    [
      el('header', {}, [
        el('h2', { id: 'modal-title', text: view.title?.text ?? '' }),
        stack.length > 1
          ? el('span', { class: 'stack-note', text: `${stack.length} views` })
          : null,
        el('button', {
          type: 'button',
          class: 'x',
          'aria-label': 'Close',
          text: '×',
          onclick: () => closeModal(view),
        }),
      ]),
      m.problem ? el('div', { class: 'modal-problem', role: 'alert', text: m.problem }) : null,
      content,
      el('footer', {}, [
        el('button', { type: 'button', text: closeLabel, onclick: () => closeModal(view) }),
        submit,
      ]),
    ],
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    submitModal(view, content);
  });
  form.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') closeModal(view);
  });
  // Slack redraws a view in place: the field being typed into keeps focus and caret.
  const typing = fresh ? null : focusOf(root);
  root.replaceChildren(el('div', { class: 'overlay' }, [form]));
  if (fresh) content.querySelector('input, textarea, select')?.focus();
  else if (typing) refocus(content, typing);
}

/** The field with focus inside `root`: its block and action ids, and the caret. */
function focusOf(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  const holder = active.closest('[data-action-id]');
  if (!holder) return null;
  const caret =
    typeof active.selectionStart === 'number'
      ? { start: active.selectionStart, end: active.selectionEnd }
      : null;
  return { blockId: holder.dataset.blockId, actionId: holder.dataset.actionId, caret };
}

/** Gives focus (and the caret) back to the same field in the redrawn view. */
function refocus(content, typing) {
  const holder = [...content.querySelectorAll('[data-action-id]')].find(
    (n) => n.dataset.blockId === typing.blockId && n.dataset.actionId === typing.actionId,
  );
  const field = holder?.matches('input, textarea, select')
    ? holder
    : holder?.querySelector('input, textarea, select');
  if (!field) return;
  field.focus({ preventScroll: true });
  if (typing.caret && typeof field.setSelectionRange === 'function') {
    const end = Math.min(typing.caret.end, field.value.length);
    field.setSelectionRange(Math.min(typing.caret.start, end), end);
  }
}

async function submitModal(view, content) {
  const m = ui.modal;
  if (m.busy) return;
  m.busy = true;
  const values = collectValues(content);
  const result = await post('/sandbox/submit', { viewId: view.id, values });
  m.busy = false;
  if (m.id !== view.id) return;
  m.errors = result.errors ?? {};
  m.problem = result.errors ? null : (result.problem ?? null);
  if (!result.ok) {
    m.redraw = true;
    drawModal();
  }
}

function closeModal(view) {
  post('/sandbox/close', { viewId: view.id });
}

function drawLog() {
  const log = ui.snap.log;
  const key = JSON.stringify(log);
  if (key === ui.drawn.log) return;
  ui.drawn.log = key;
  const problems = log.filter((e) => e.level !== 'info').length;
  $('log-count').textContent = problems ? `(${problems})` : '';
  $('log').replaceChildren(
    ...log
      .slice()
      .reverse()
      .map((e) =>
        el('li', { class: e.level }, [el('time', { text: e.at.slice(11, 19) }), ` ${e.text}`]),
      ),
  );
}

function render() {
  if (!ui.snap) return;
  if (!ui.target) {
    // The channel the welcome names (the sandbox says which), else the first.
    const first =
      ui.snap.channels.find((c) => c.kind === 'channel' && c.id === ui.snap.startChannel) ??
      ui.snap.channels.find((c) => c.kind === 'channel');
    ui.target = { kind: 'channel', id: first?.id };
  }
  if (
    ui.target.kind === 'channel' &&
    !ui.snap.channels.some((c) => c.id === ui.target.id && c.kind === 'channel')
  ) {
    ui.target = { kind: 'channel', id: ui.snap.channels[0]?.id };
  }
  drawConversation();
  drawSidebar();
  drawHeader();
  drawModal();
  drawPanel(ui.snap.panel, {
    userName: (id) => userById(id)?.realName ?? id,
    close: () => post('/sandbox/close-panel', {}),
  });
  drawLog();
  document.body.dataset.version = String(ui.snap.version);
  document.body.dataset.user = ui.me ?? '';
}

// ---------- data ----------

async function refresh() {
  if (ui.loading) {
    ui.again = true;
    return;
  }
  ui.loading = true;
  try {
    const res = await fetch(`/sandbox/state?user=${encodeURIComponent(ui.me ?? '')}`);
    ui.snap = await res.json();
    if (ui.snap.me && ui.me !== ui.snap.me) {
      ui.me = ui.snap.me;
    }
    render();
  } catch {
    // The stream reconnects and triggers another refresh.
  } finally {
    ui.loading = false;
    if (ui.again) {
      ui.again = false;
      refresh();
    }
  }
}

function wireComposer() {
  const input = $('composer-input');
  const hint = $('composer-hint');
  const send = async () => {
    const text = input.value;
    const channel = currentChannelId();
    if (!text.trim() || !channel) return;
    input.value = '';
    hint.hidden = true;
    const thread = ui.replyTo?.channel === channel ? { threadTs: ui.replyTo.ts } : {};
    await post('/sandbox/message', { channel, text, ...thread });
  };
  $('composer').addEventListener('submit', (ev) => {
    ev.preventDefault();
    send();
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey) {
      ev.preventDefault();
      send();
    }
  });
  input.addEventListener('input', () => {
    const word = input.value.split(/\s/)[0];
    const commands = word.startsWith('/')
      ? (ui.snap?.app.commands ?? []).filter((c) => c.command.startsWith(word))
      : [];
    hint.hidden = commands.length === 0;
    hint.replaceChildren(
      ...commands.map((c) =>
        el('div', {}, [el('b', { text: c.command }), ` ${c.usageHint}  — ${c.description}`]),
      ),
    );
  });
}

function boot() {
  parseLocation();
  wireComposer();
  $('user-switch').addEventListener('change', (ev) => {
    ui.me = ev.target.value;
    localStorage.setItem('sandbox.me', ui.me);
    ui.drawn = { sidebar: '', header: '', conv: '', home: '', log: '' };
    ui.modal = { id: null, hash: null, errors: {}, problem: null, dirty: new Set(), busy: false };
    if (ui.target?.kind === 'app') post('/sandbox/home', { tab: ui.target.tab });
    else refresh();
  });
  window.addEventListener('popstate', () => {
    parseLocation();
    render();
  });
  const stream = new EventSource('/sandbox/stream');
  stream.addEventListener('change', (ev) => {
    if (Number(ev.data) !== ui.snap?.version) refresh();
  });
  refresh().then(() => {
    if (ui.target?.kind === 'app') post('/sandbox/home', { tab: ui.target.tab });
  });
}

boot();
