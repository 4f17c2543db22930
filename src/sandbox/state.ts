// Everything the sandbox Slack knows, in memory: people, channels, messages, open views,
// triggers, response URLs and files. Every change bumps `version` and emits 'change' so the page
// (through Server-Sent Events) and tests can follow along.

import { EventEmitter } from 'node:events';
import { type BlockObj, normalizeBlocks } from './block-kit.js';
import { nextTs, slackId, triggerId } from './slack-ids.js';
import {
  DEFAULT_BOT,
  DEFAULT_CHANNELS,
  DEFAULT_TEAM,
  DEFAULT_USERS,
  type SandboxChannelSpec,
  type SandboxUserSpec,
  tzInfo,
} from './workspace.js';

export interface SandboxUser extends SandboxUserSpec {
  isBot: boolean;
  color: string;
}

export interface SandboxChannel {
  id: string;
  name: string;
  kind: 'channel' | 'im';
  members: Set<string>;
  /** For a DM with the bot: the human in it. */
  imUser?: string;
  topic?: string;
  created: number;
}

export interface SandboxMessage {
  ts: string;
  channel: string;
  /** Author: a user id or the bot user id. */
  user: string;
  botId?: string;
  text: string;
  blocks?: BlockObj[];
  attachments?: unknown[];
  threadTs?: string;
  /** Set for ephemeral messages: the only user who sees it. */
  ephemeralTo?: string;
  edited?: { user: string; ts: string };
  /** Messages from Slack itself (e.g. "/foo is not a valid command") are shown as Slackbot. */
  fromSlackbot?: boolean;
  metadata?: unknown;
  /** The app's preview of the message's links (chat.unfurl; link-previews.ts). */
  unfurl?: { unfurls: Record<string, unknown>; entities: Record<string, unknown>[] };
  /** Emoji reactions: name → who reacted. */
  reactions?: { name: string; users: string[] }[];
}

export interface SlackView {
  id: string;
  team_id: string;
  type: 'modal' | 'home';
  title?: unknown;
  submit?: unknown;
  close?: unknown;
  blocks: BlockObj[];
  private_metadata: string;
  callback_id: string;
  external_id: string;
  state: { values: Record<string, Record<string, Record<string, unknown>>> };
  hash: string;
  clear_on_close: boolean;
  notify_on_close: boolean;
  root_view_id: string;
  previous_view_id: string | null;
  app_id: string;
  app_installed_team_id: string;
  bot_id: string;
}

export interface StoredView {
  view: SlackView;
  userId: string;
}

export interface Trigger {
  id: string;
  userId: string;
  issuedAt: number;
  used: boolean;
}

export interface ResponseHook {
  id: string;
  userId: string;
  channelId: string;
  createdAt: number;
  uses: number;
  /** The message the interaction came from (or the last one posted through this hook). */
  original?: { channel: string; ts: string };
}

export interface LogEntry {
  at: string;
  level: 'info' | 'warn' | 'error';
  text: string;
}

export interface SandboxStateOptions {
  team?: { id: string; name: string; domain: string };
  users?: readonly SandboxUserSpec[];
  channels?: readonly SandboxChannelSpec[];
  bot?: typeof DEFAULT_BOT;
  appName?: string;
  /** Where log lines go besides the page's log panel (default: console). */
  logger?: (entry: LogEntry) => void;
  /** Page URL, used for permalinks and auth.test's url. */
  baseUrl?: string;
}

const COLORS = ['9f69e7', '4bbe2e', 'e7392d', '3c989f', 'e96699', 'e0a729', '674b1b', '2b6836'];
export const TRIGGER_TTL_MS = 3000;
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;
export const RESPONSE_URL_MAX_USES = 5;
export const MAX_VIEW_STACK = 3;

export class SandboxState extends EventEmitter {
  readonly team: { id: string; name: string; domain: string };
  readonly bot: typeof DEFAULT_BOT;
  appName: string;
  baseUrl: string;
  readonly users = new Map<string, SandboxUser>();
  readonly channels = new Map<string, SandboxChannel>();
  readonly messages = new Map<string, SandboxMessage[]>();
  readonly views = new Map<string, StoredView>();
  readonly modalStacks = new Map<string, string[]>();
  readonly homeViews = new Map<string, string>();
  readonly triggers = new Map<string, Trigger>();
  /** Each person's open side panel: a Work Object's details (entity.presentDetails). */
  readonly panels = new Map<string, unknown>();
  readonly hooks = new Map<string, ResponseHook>();
  readonly files = new Map<string, Record<string, unknown>>();
  readonly log: LogEntry[] = [];
  version = 0;
  /** The channel the page opens on (the one the welcome names); else the first. */
  startChannel?: string;
  triggerTtlMs = TRIGGER_TTL_MS;
  private readonly logger: (entry: LogEntry) => void;

  constructor(opts: SandboxStateOptions = {}) {
    super();
    this.setMaxListeners(100);
    this.team = opts.team ?? DEFAULT_TEAM;
    this.bot = opts.bot ?? DEFAULT_BOT;
    this.appName = opts.appName ?? 'Worklink';
    this.baseUrl = opts.baseUrl ?? 'http://localhost';
    this.logger =
      opts.logger ??
      ((e) => {
        const line = `[sandbox] ${e.text}`;
        if (e.level === 'info') console.log(line);
        else console.warn(line);
      });
    const specs = opts.users ?? DEFAULT_USERS;
    specs.forEach((u, i) => {
      this.users.set(u.id, { ...u, isBot: false, color: COLORS[i % COLORS.length] });
    });
    this.users.set(this.bot.botUserId, {
      id: this.bot.botUserId,
      name: this.bot.name,
      realName: this.appName,
      email: '',
      tz: 'America/Los_Angeles',
      isBot: true,
      color: '3aa3e3',
    });
    const humans = this.humans().map((u) => u.id);
    const created = Math.floor(Date.now() / 1000);
    for (const c of opts.channels ?? DEFAULT_CHANNELS) {
      this.channels.set(c.id, {
        id: c.id,
        name: c.name,
        kind: 'channel',
        members: new Set([...humans, this.bot.botUserId]),
        topic: c.topic,
        created,
      });
    }
    for (const id of humans) {
      // Deterministic DM ids keep URLs and test expectations stable across restarts.
      const dm = `D${id.slice(1)}`;
      this.channels.set(dm, {
        id: dm,
        name: dm,
        kind: 'im',
        members: new Set([id, this.bot.botUserId]),
        imUser: id,
        created,
      });
    }
  }

  humans(): SandboxUser[] {
    return [...this.users.values()].filter((u) => !u.isBot);
  }

  changed(): void {
    this.version += 1;
    this.emit('change', this.version);
  }

  note(level: LogEntry['level'], text: string): void {
    const entry = { at: new Date().toISOString(), level, text };
    this.log.push(entry);
    if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
    this.logger(entry);
    this.changed();
  }

  userByEmail(email: string): SandboxUser | undefined {
    const wanted = email.trim().toLowerCase();
    if (!wanted) return undefined;
    return [...this.users.values()].find((u) => u.email.toLowerCase() === wanted && !u.isBot);
  }

  imFor(userId: string): SandboxChannel | undefined {
    return [...this.channels.values()].find((c) => c.kind === 'im' && c.imUser === userId);
  }

  /** chat.postMessage accepts a user id for "DM this user from the bot". */
  resolvePostChannel(channel: string): SandboxChannel | undefined {
    if (/^[UW]/.test(channel)) return this.users.has(channel) ? this.imFor(channel) : undefined;
    return this.channels.get(channel);
  }

  /** The channel's name as Slack puts it in payloads ("directmessage" for DMs). */
  channelName(channel: SandboxChannel): string {
    return channel.kind === 'im' ? 'directmessage' : channel.name;
  }

  // ---- messages ----

  addMessage(
    m: Omit<SandboxMessage, 'ts' | 'blocks'> & { ts?: string; blocks?: unknown[] },
  ): SandboxMessage {
    const message: SandboxMessage = {
      ...m,
      ts: m.ts ?? nextTs(),
      blocks: m.blocks ? normalizeBlocks(m.blocks) : undefined,
    };
    const list = this.messages.get(message.channel) ?? [];
    list.push(message);
    this.messages.set(message.channel, list);
    this.changed();
    return message;
  }

  /** reactions.add: once per person and name. */
  addReaction(message: SandboxMessage, name: string, user: string): void {
    const list = message.reactions ?? [];
    const found = list.find((r) => r.name === name);
    if (found?.users.includes(user)) return;
    if (found) found.users.push(user);
    else list.push({ name, users: [user] });
    message.reactions = list;
    this.changed();
  }

  findMessage(channel: string, ts: string): SandboxMessage | undefined {
    return this.messages.get(channel)?.find((m) => m.ts === ts);
  }

  replaceMessage(
    message: SandboxMessage,
    patch: { text: string; blocks?: unknown[]; attachments?: unknown[] },
    editor: string,
  ): SandboxMessage {
    message.text = patch.text;
    message.blocks = patch.blocks ? normalizeBlocks(patch.blocks) : undefined;
    message.attachments = patch.attachments;
    message.edited = { user: editor, ts: nextTs() };
    this.changed();
    return message;
  }

  deleteMessage(message: SandboxMessage): void {
    const list = this.messages.get(message.channel) ?? [];
    this.messages.set(
      message.channel,
      list.filter((m) => m !== message),
    );
    this.changed();
  }

  canSee(userId: string, m: SandboxMessage): boolean {
    if (m.ephemeralTo !== undefined) return m.ephemeralTo === userId;
    return this.channels.get(m.channel)?.members.has(userId) ?? false;
  }

  // ---- views ----

  newView(userId: string, spec: Record<string, unknown>, rootViewId?: string, previous?: string) {
    const id = slackId('V');
    const view = this.buildView(id, spec, rootViewId ?? id, previous ?? null, {});
    this.views.set(id, { view, userId });
    return view;
  }

  /** Replaces a view's content, keeping its id and place in the stack (views.update). */
  replaceView(id: string, spec: Record<string, unknown>): SlackView {
    const stored = this.views.get(id);
    if (!stored) throw new Error(`no view ${id}`);
    const old = stored.view;
    stored.view = this.buildView(
      id,
      spec,
      old.root_view_id,
      old.previous_view_id,
      old.state.values,
    );
    this.changed();
    return stored.view;
  }

  private buildView(
    id: string,
    spec: Record<string, unknown>,
    root: string,
    previous: string | null,
    values: SlackView['state']['values'],
  ): SlackView {
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    return {
      id,
      team_id: this.team.id,
      type: spec.type === 'home' ? 'home' : 'modal',
      title: spec.title,
      submit: spec.submit ?? null,
      close: spec.close ?? null,
      blocks: normalizeBlocks(Array.isArray(spec.blocks) ? spec.blocks : []),
      private_metadata: str(spec.private_metadata),
      callback_id: str(spec.callback_id),
      external_id: str(spec.external_id),
      state: { values },
      hash: `${Math.floor(Date.now() / 1000)}.${slackId('', 8).toLowerCase()}`,
      clear_on_close: spec.clear_on_close === true,
      notify_on_close: spec.notify_on_close === true,
      root_view_id: root,
      previous_view_id: previous,
      app_id: this.bot.appId,
      app_installed_team_id: this.team.id,
      bot_id: this.bot.botId,
    };
  }

  viewByExternalId(externalId: string): StoredView | undefined {
    return [...this.views.values()].find((v) => v.view.external_id === externalId);
  }

  stackOf(userId: string): string[] {
    return this.modalStacks.get(userId) ?? [];
  }

  topModal(userId: string): StoredView | undefined {
    const stack = this.stackOf(userId);
    const id = stack[stack.length - 1];
    return id === undefined ? undefined : this.views.get(id);
  }

  openModal(userId: string, spec: Record<string, unknown>): SlackView {
    // A new views.open replaces whatever modal the user had open, as in Slack.
    for (const old of this.stackOf(userId)) this.views.delete(old);
    const view = this.newView(userId, spec);
    this.modalStacks.set(userId, [view.id]);
    this.changed();
    return view;
  }

  pushModal(userId: string, spec: Record<string, unknown>): SlackView {
    const stack = this.stackOf(userId);
    const top = stack[stack.length - 1];
    const root = top ? (this.views.get(top)?.view.root_view_id ?? top) : undefined;
    const view = this.newView(userId, spec, root, top);
    this.modalStacks.set(userId, [...stack, view.id]);
    this.changed();
    return view;
  }

  /** Closes the top modal (or all of them); returns the closed views. */
  closeModals(userId: string, all: boolean): SlackView[] {
    const stack = this.stackOf(userId);
    const closing = all ? stack : stack.slice(-1);
    const rest = all ? [] : stack.slice(0, -1);
    const closed = closing.map((id) => this.views.get(id)?.view).filter((v) => v !== undefined);
    for (const id of closing) this.views.delete(id);
    this.modalStacks.set(userId, rest);
    this.changed();
    return closed;
  }

  publishHome(userId: string, spec: Record<string, unknown>): SlackView {
    const existing = this.homeViews.get(userId);
    if (existing && this.views.has(existing)) return this.replaceView(existing, spec);
    const view = this.newView(userId, spec);
    this.homeViews.set(userId, view.id);
    this.changed();
    return view;
  }

  // ---- triggers and response URLs ----

  issueTrigger(userId: string): string {
    const now = Date.now();
    for (const [id, t] of this.triggers) {
      if (now - t.issuedAt > 60_000) this.triggers.delete(id);
    }
    const id = triggerId();
    this.triggers.set(id, { id, userId, issuedAt: now, used: false });
    return id;
  }

  /** Uses up a trigger; Slack error names for the ways it can fail. */
  exchangeTrigger(id: unknown): Trigger | { error: string } {
    if (typeof id !== 'string' || id.length === 0) return { error: 'invalid_arguments' };
    const t = this.triggers.get(id);
    // Unknown ids look exactly like ones that expired long ago and were forgotten.
    if (!t) return { error: 'expired_trigger_id' };
    if (t.used) return { error: 'exchanged_trigger_id' };
    if (Date.now() - t.issuedAt > this.triggerTtlMs) return { error: 'expired_trigger_id' };
    t.used = true;
    return t;
  }

  newResponseHook(
    userId: string,
    channelId: string,
    original?: { channel: string; ts: string },
  ): ResponseHook {
    const hook = {
      id: slackId('', 24),
      userId,
      channelId,
      createdAt: Date.now(),
      uses: 0,
      original,
    };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  responseUrl(hook: ResponseHook): string {
    return `${this.baseUrl}/response/${this.team.id}/${hook.id}`;
  }

  // ---- files ----

  addFile(url: string, userId: string): Record<string, unknown> {
    const id = slackId('F');
    const now = Math.floor(Date.now() / 1000);
    let name = 'file';
    try {
      name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'file');
    } catch {
      // keep the generic name
    }
    const ext = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
    const file = {
      id,
      created: now,
      timestamp: now,
      name,
      title: name,
      mimetype: 'application/octet-stream',
      filetype: ext || 'binary',
      pretty_type: ext ? ext.toUpperCase() : 'Binary',
      user: userId,
      user_team: this.team.id,
      editable: false,
      size: 0,
      mode: 'external',
      is_external: true,
      external_type: 'app',
      is_public: false,
      public_url_shared: false,
      display_as_bot: false,
      username: '',
      url_private: url,
      url_private_download: url,
      permalink: url,
      permalink_public: url,
    };
    this.files.set(id, file);
    return file;
  }

  // ---- Slack-shaped objects ----

  userObject(u: SandboxUser): Record<string, unknown> {
    const [first, ...rest] = u.realName.split(' ');
    const image = (size: number) =>
      `https://ui-avatars.com/api/?name=${encodeURIComponent(u.realName)}&size=${size}`;
    return {
      id: u.id,
      team_id: u.teamId ?? this.team.id,
      name: u.name,
      deleted: false,
      color: u.color,
      real_name: u.realName,
      ...tzInfo(u.tz),
      profile: {
        title: u.title ?? '',
        phone: '',
        skype: '',
        real_name: u.realName,
        real_name_normalized: u.realName,
        display_name: u.isBot ? '' : u.name,
        display_name_normalized: u.isBot ? '' : u.name,
        status_text: '',
        status_emoji: '',
        first_name: first,
        last_name: rest.join(' '),
        ...(u.isBot ? { bot_id: this.bot.botId, api_app_id: this.bot.appId } : { email: u.email }),
        image_24: image(24),
        image_32: image(32),
        image_48: image(48),
        image_72: image(72),
        image_192: image(192),
        team: this.team.id,
      },
      is_admin: u.isAdmin === true,
      is_owner: u.isOwner === true,
      is_primary_owner: u.isOwner === true,
      is_restricted: u.isRestricted === true || u.isUltraRestricted === true,
      is_ultra_restricted: u.isUltraRestricted === true,
      is_bot: u.isBot,
      is_app_user: false,
      updated: Math.floor(Date.now() / 1000) - 86_400,
      is_email_confirmed: !u.isBot,
      who_can_share_contact_card: 'EVERYONE',
    };
  }

  channelObject(c: SandboxChannel): Record<string, unknown> {
    if (c.kind === 'im') {
      return {
        id: c.id,
        created: c.created,
        is_archived: false,
        is_im: true,
        is_org_shared: false,
        context_team_id: this.team.id,
        updated: c.created * 1000,
        user: c.imUser,
        is_user_deleted: false,
        priority: 0,
      };
    }
    return {
      id: c.id,
      name: c.name,
      is_channel: true,
      is_group: false,
      is_im: false,
      is_mpim: false,
      is_private: false,
      created: c.created,
      is_archived: false,
      is_general: c.name === 'general',
      name_normalized: c.name,
      is_shared: false,
      is_org_shared: false,
      is_member: c.members.has(this.bot.botUserId),
      topic: { value: c.topic ?? '', creator: '', last_set: 0 },
      purpose: { value: '', creator: '', last_set: 0 },
      num_members: c.members.size,
    };
  }

  messageObject(m: SandboxMessage): Record<string, unknown> {
    const fromBot = m.botId !== undefined;
    return {
      type: 'message',
      ...(fromBot ? { bot_id: m.botId, app_id: this.bot.appId } : {}),
      user: m.user,
      text: m.text,
      ts: m.ts,
      team: this.team.id,
      ...(m.blocks ? { blocks: m.blocks } : {}),
      ...(m.attachments ? { attachments: m.attachments } : {}),
      ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
      ...(m.edited ? { edited: m.edited } : {}),
      ...(m.metadata ? { metadata: m.metadata } : {}),
      ...(fromBot
        ? {
            bot_profile: {
              id: m.botId,
              app_id: this.bot.appId,
              name: this.appName,
              deleted: false,
              team_id: this.team.id,
            },
          }
        : {}),
    };
  }
}
