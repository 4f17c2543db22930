// The sandbox page: one user's view of the workspace. It draws a snapshot from
// /sandbox/state, redraws when /sandbox/stream says something changed, and turns clicks and
// typing into /sandbox/* calls, which the server turns into signed requests to the app.
// This file holds navigation, the sidebar and header, the log, the composer and the loop that
// fetches and draws; messages.js draws conversations, views.js the Home tab and modals.
// @ts-check

import { onPosted, post } from './calls.js';
import { el } from './dom.js';
import { drawConversation, unreadCount } from './messages.js';
import { drawPanel } from './previews.js';
import { $, byId, currentChannelId, noModal, nothingDrawn, ui, userById } from './session.js';
import { drawHome, drawModal } from './views.js';

/**
 * @typedef {import('./types.js').PageSnapshot} PageSnapshot
 * @typedef {import('./session.js').Target} Target
 */

// ---------- navigation ----------

function parseLocation() {
  const archive = /^\/archives\/([A-Z0-9]+)\/p(\d{10})(\d{6})/.exec(location.pathname);
  if (archive) {
    ui.highlight = `${archive[2]}.${archive[3]}`;
    history.replaceState(null, '', `/#/${archive[1]}`);
  }
  const hash = location.hash.replace(/^#\/?/, '');
  if (hash === 'app/home') ui.target = { kind: 'app', tab: 'home' };
  else if (hash === 'app/messages') ui.target = { kind: 'app', tab: 'messages' };
  else if (hash) ui.target = { kind: 'channel', id: hash };
}

/** @param {Target} target */
function go(target) {
  const hash = target.kind === 'app' ? `#/app/${target.tab}` : `#/${target.id}`;
  if (location.hash !== hash) history.pushState(null, '', hash);
  ui.target = target;
  if (target.kind === 'app') post('/sandbox/home', { tab: target.tab });
  render();
}

// ---------- drawing ----------

/** @param {PageSnapshot} s */
function drawSidebar(s) {
  const channels = s.channels.filter((c) => c.kind === 'channel');
  const unread = Object.fromEntries(s.channels.map((c) => [c.id, unreadCount(s, c.id)]));
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
  byId('user-switch', HTMLSelectElement).replaceChildren(
    ...s.users
      .filter((u) => !u.isBot)
      .map((u) => el('option', { value: u.id, selected: u.id === ui.me }, [u.realName])),
  );
  /**
   * @param {string} label
   * @param {boolean} active
   * @param {number} count
   * @param {() => unknown} onclick
   * @param {string} [title]
   */
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
  const t = ui.target;
  $('channel-list').replaceChildren(
    ...channels.map((c) =>
      item(
        `# ${c.name}`,
        t?.kind === 'channel' && t.id === c.id,
        unread[c.id],
        () => go({ kind: 'channel', id: c.id }),
        c.topic,
      ),
    ),
  );
  const appTab = s.app.homeTab ? 'home' : 'messages';
  $('app-list').replaceChildren(
    item(s.app.name, t?.kind === 'app', s.app.imChannel ? unread[s.app.imChannel] : 0, () =>
      go({ kind: 'app', tab: appTab }),
    ),
  );
}

/**
 * @param {PageSnapshot} s
 * @param {Target} t
 */
function drawHeader(s, t) {
  const channel = t.kind === 'channel' ? s.channels.find((c) => c.id === t.id) : null;
  const key = JSON.stringify([t, s.app, channel?.name]);
  if (key === ui.drawn.header) return;
  ui.drawn.header = key;
  $('conv-title').textContent = t.kind === 'app' ? s.app.name : `# ${channel?.name ?? ''}`;
  const tabs = $('tabs');
  tabs.hidden = t.kind !== 'app';
  /**
   * @param {'home' | 'messages'} name
   * @param {string} label
   * @param {boolean} enabled
   */
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
      (b) => b !== null,
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

/** @param {PageSnapshot} s */
function drawLog(s) {
  const log = s.log;
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

/**
 * Where the page is: the channel asked for, else the one the welcome names (the sandbox says
 * which), else the first.
 * @param {PageSnapshot} s
 * @returns {Target}
 */
function placeOf(s) {
  const t = ui.target;
  const isChannel = (/** @type {string} */ id) =>
    s.channels.some((c) => c.id === id && c.kind === 'channel');
  if (t?.kind === 'app' || (t && isChannel(t.id))) return t;
  if (!t) {
    const first =
      s.channels.find((c) => c.kind === 'channel' && c.id === s.startChannel) ??
      s.channels.find((c) => c.kind === 'channel');
    return { kind: 'channel', id: first?.id ?? '' };
  }
  return { kind: 'channel', id: s.channels[0]?.id ?? '' };
}

function render() {
  const s = ui.snap;
  if (!s) return;
  const t = placeOf(s);
  ui.target = t;
  const onHome = t.kind === 'app' && t.tab === 'home';
  $('conversation').hidden = onHome;
  $('composer').hidden = onHome;
  $('home').hidden = !onHome;
  if (onHome) drawHome(s);
  else drawConversation(s);
  drawSidebar(s);
  drawHeader(s, t);
  drawModal(s);
  drawPanel(s.panel, {
    userName: (id) => userById(s, id)?.realName ?? id,
    close: () => post('/sandbox/close-panel', {}),
  });
  drawLog(s);
  document.body.dataset.version = String(s.version);
  document.body.dataset.user = ui.me ?? '';
}

// ---------- data ----------

async function refresh() {
  if (ui.loading) {
    ui.again = true;
    return;
  }
  ui.loading = true;
  const asked = ui.me;
  try {
    const res = await fetch(`/sandbox/state?user=${encodeURIComponent(asked ?? '')}`);
    /** @type {PageSnapshot} */
    const snap = await res.json();
    if (ui.me !== asked) {
      // Another person was chosen while this view was on its way: ask again for theirs.
      ui.again = true;
      return;
    }
    ui.snap = snap;
    // The sandbox names who the view is for: the first person when none or an unknown one
    // was asked.
    if (snap.me && ui.me !== snap.me) ui.me = snap.me;
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
  const input = byId('composer-input', HTMLTextAreaElement);
  const hint = $('composer-hint');
  const send = async () => {
    const text = input.value;
    const channel = currentChannelId(ui.snap);
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
  onPosted(refresh);
  parseLocation();
  wireComposer();
  const switcher = byId('user-switch', HTMLSelectElement);
  switcher.addEventListener('change', () => {
    ui.me = switcher.value;
    localStorage.setItem('sandbox.me', ui.me);
    ui.drawn = nothingDrawn();
    ui.modal = noModal();
    // The thread being replied in was the previous person's choice.
    ui.replyTo = null;
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
