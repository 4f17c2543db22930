// Everything the sandbox Slack knows, in memory: people, channels, messages, open views,
// triggers, response URLs and files (the records are in records.ts). Every change bumps
// `version` and emits 'change' so the page (through Server-Sent Events) and tests can follow.

import { EventEmitter } from 'node:events';
import { normalizeBlocks } from './block-kit.js';
import type {
  LogEntry,
  ResponseHook,
  SandboxChannel,
  SandboxMessage,
  SandboxTeam,
  SandboxUser,
  SlackView,
  StoredView,
  Trigger,
} from './records.js';
import { startingChannels, startingUsers } from './roster.js';
import { nextTs, slackId } from './slack-ids.js';
import { externalFile, viewObject } from './slack-objects.js';
import { TriggerIds } from './trigger-ids.js';
import {
  DEFAULT_BOT,
  DEFAULT_CHANNELS,
  DEFAULT_TEAM,
  DEFAULT_USERS,
  type SandboxChannelSpec,
  type SandboxUserSpec,
} from './workspace.js';

export interface SandboxStateOptions {
  team?: SandboxTeam;
  users?: readonly SandboxUserSpec[];
  channels?: readonly SandboxChannelSpec[];
  bot?: typeof DEFAULT_BOT;
  appName?: string;
  /** Where log lines go besides the page's log panel (default: console). */
  logger?: (entry: LogEntry) => void;
  /** Page URL, used for permalinks and auth.test's url. */
  baseUrl?: string;
}

export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;
export const RESPONSE_URL_MAX_USES = 5;
export const MAX_VIEW_STACK = 3;

export class SandboxState extends EventEmitter {
  readonly team: SandboxTeam;
  readonly bot: typeof DEFAULT_BOT;
  appName: string;
  baseUrl: string;
  readonly users = new Map<string, SandboxUser>();
  readonly channels = new Map<string, SandboxChannel>();
  readonly messages = new Map<string, SandboxMessage[]>();
  readonly views = new Map<string, StoredView>();
  readonly modalStacks = new Map<string, string[]>();
  readonly homeViews = new Map<string, string>();
  readonly triggers = new TriggerIds();
  /** Each person's open side panel: a Work Object's details (entity.presentDetails). */
  readonly panels = new Map<string, Record<string, unknown>>();
  readonly hooks = new Map<string, ResponseHook>();
  readonly files = new Map<string, Record<string, unknown>>();
  readonly log: LogEntry[] = [];
  version = 0;
  /** The channel the page opens on (the one the welcome names); else the first. */
  startChannel?: string;
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
    for (const u of startingUsers(this, opts.users ?? DEFAULT_USERS)) this.users.set(u.id, u);
    const humans = this.humans().map((u) => u.id);
    for (const c of startingChannels(this, opts.channels ?? DEFAULT_CHANNELS, humans)) {
      this.channels.set(c.id, c);
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

  /** reactions.add: once per person and name; false when `user` had already reacted so. */
  addReaction(message: SandboxMessage, name: string, user: string): boolean {
    const list = message.reactions ?? [];
    const found = list.find((r) => r.name === name);
    if (found?.users.includes(user)) return false;
    if (found) found.users.push(user);
    else list.push({ name, users: [user] });
    message.reactions = list;
    this.changed();
    return true;
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
    const place = { root: rootViewId ?? id, previous: previous ?? null, values: {} };
    const view = viewObject(this, id, spec, place);
    this.views.set(id, { view, userId });
    return view;
  }

  /** Replaces a view's content, keeping its id, its place in the stack and its values. */
  replaceView(id: string, spec: Record<string, unknown>): SlackView {
    const stored = this.views.get(id);
    if (!stored) throw new Error(`no view ${id}`);
    const old = stored.view;
    stored.view = viewObject(this, id, spec, {
      root: old.root_view_id,
      previous: old.previous_view_id,
      values: old.state.values,
    });
    this.changed();
    return stored.view;
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

  /** A trigger_id for an interaction of `userId` (trigger-ids.ts has Slack's rules). */
  issueTrigger(userId: string): string {
    return this.triggers.issue(userId);
  }

  /** Uses up a trigger; Slack's error names for the ways it can fail. */
  exchangeTrigger(id: unknown): Trigger | { error: string } {
    return this.triggers.exchange(id);
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
    const file = externalFile(this, url, userId);
    this.files.set(file.id, file);
    return file;
  }
}
