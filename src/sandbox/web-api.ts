// The Slack Web API methods Worklink calls, answered from SandboxState with Slack's response
// shapes and error names. Anything else answers `unknown_method` and is logged, so a gap in the
// sandbox shows up instead of passing silently.

import { errMessage } from '../error-message.js';
import { validateBlocks, validateView } from './block-validation.js';
import type { SandboxChannel, SandboxState, SlackView } from './state.js';
import { MAX_VIEW_STACK } from './state.js';
import { type ApiResult, ApiScripts, type Args, resolveReply } from './web-api-scripts.js';

export type { ApiResult, Args } from './web-api-scripts.js';

export interface Fault {
  /** HTTP status to answer with, e.g. 429 or 503. */
  status: number;
  /** Slack error name in the body (default: "ratelimited" for 429, "internal_error" otherwise). */
  error?: string;
  /** Seconds, sent as Retry-After (429). */
  retryAfter?: number;
}

export interface ApiCall {
  method: string;
  args: Args;
  at: number;
  ok: boolean;
  error?: string;
}

class ApiError extends Error {
  constructor(
    readonly error: string,
    readonly messages?: string[],
  ) {
    super(error);
  }
}

function fail(error: string, messages?: string[]): never {
  throw new ApiError(error, messages);
}

function str(args: Args, key: string): string | undefined {
  const v = args[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function bool(args: Args, key: string): boolean {
  const v = args[key];
  return v === true || v === 'true' || v === '1' || v === 1;
}

/** Complex arguments arrive as JSON strings in form posts and as objects in JSON posts. */
function json(args: Args, key: string, badError: string): unknown {
  const v = args[key];
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return fail(badError, [`[ERROR] \`${key}\` is not valid JSON`]);
  }
}

function messageContent(args: Args): { text: string; blocks?: unknown[]; attachments?: unknown[] } {
  const text = str(args, 'text');
  const blocks = json(args, 'blocks', 'invalid_blocks_format');
  const attachments = json(args, 'attachments', 'invalid_attachments');
  if (blocks !== undefined) {
    const problems = validateBlocks(blocks, 'message');
    if (problems.length > 0) fail('invalid_blocks', problems);
  }
  if (attachments !== undefined && !Array.isArray(attachments)) fail('invalid_attachments');
  const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
  const hasAttachments = Array.isArray(attachments) && attachments.length > 0;
  if ((text === undefined || text.length === 0) && !hasBlocks && !hasAttachments) fail('no_text');
  if (text !== undefined && text.length > 40_000) fail('msg_too_long');
  return {
    text: text ?? '',
    blocks: hasBlocks ? (blocks as unknown[]) : undefined,
    attachments: hasAttachments ? (attachments as unknown[]) : undefined,
  };
}

/** Message metadata as Slack takes it: {event_type, event_payload}, else refused. */
function metadataArg(args: Args): unknown {
  const v = json(args, 'metadata', 'invalid_metadata_format');
  if (v === undefined) return undefined;
  const m = v as { event_type?: unknown; event_payload?: unknown } | null;
  const payload = m?.event_payload;
  if (
    typeof m !== 'object' ||
    m === null ||
    typeof m.event_type !== 'string' ||
    !/^[A-Za-z0-9_.-]{1,255}$/.test(m.event_type) ||
    typeof payload !== 'object' ||
    payload === null ||
    Array.isArray(payload)
  ) {
    fail('invalid_metadata_format', [
      '[ERROR] metadata must be an object with an event_type string and an event_payload object',
    ]);
  }
  return { event_type: m.event_type, event_payload: payload };
}

type Handler = (args: Args) => Record<string, unknown>;

export class WebApi {
  readonly calls: ApiCall[] = [];
  /** Scripts and observers around every call that arrives through handle(). */
  readonly scripts = new ApiScripts();
  private readonly faults = new Map<string, Fault[]>();
  private readonly handlers: Record<string, Handler>;
  private acceptsToken: (token: string) => boolean;

  /** `botToken`: the one token Slack issued, or a test of which tokens are valid. */
  constructor(
    private readonly state: SandboxState,
    botToken: string | ((token: string) => boolean),
  ) {
    this.handlers = this.buildHandlers();
    this.acceptsToken = typeof botToken === 'string' ? (t) => t === botToken : botToken;
  }

  /**
   * A call as it arrives over HTTP: observers hear of it, a script may answer instead (after
   * the token check, as Slack checks tokens first), else the real answer.
   */
  async handle(method: string, args: Args, bearer: string | undefined): Promise<ApiResult> {
    const token = bearer ?? str(args, 'token');
    const event = { method, args, token };
    this.scripts.received(event);
    const refused = this.authProblem(method, token);
    const result = refused
      ? { status: 200, body: { ok: false, error: refused } }
      : await resolveReply(await this.scripts.reply(method, args), () =>
          this.call(method, args, bearer),
        );
    this.scripts.answered(event, result);
    return result;
  }

  /** Makes the next call(s) of a method fail, e.g. `{status: 429, retryAfter: 1}`. */
  injectFault(method: string, fault: Fault, times = 1): void {
    const list = this.faults.get(method) ?? [];
    for (let i = 0; i < times; i++) list.push(fault);
    this.faults.set(method, list);
  }

  /**
   * More methods, answered like the built-in ones (a thrown `{error}` is Slack's error name),
   * and more tokens they accept (e.g. workflow-functions.ts: each execution's own token).
   */
  extend(methods: Record<string, Handler>, acceptsToken?: (token: string) => boolean): void {
    for (const [name, handler] of Object.entries(methods)) {
      this.handlers[name] = (args) => {
        try {
          return handler(args);
        } catch (e) {
          if (e instanceof Error && 'error' in e && typeof e.error === 'string') fail(e.error);
          throw e;
        }
      };
    }
    if (acceptsToken) {
      const before = this.acceptsToken;
      this.acceptsToken = (t) => before(t) || acceptsToken(t);
    }
  }

  handles(method: string): boolean {
    return Object.hasOwn(this.handlers, method);
  }

  call(method: string, args: Args, bearer: string | undefined): ApiResult {
    const result = this.dispatch(method, args, bearer);
    const { token: _token, ...safeArgs } = args;
    this.calls.push({
      method,
      args: safeArgs,
      at: Date.now(),
      ok: result.body.ok === true,
      error: typeof result.body.error === 'string' ? result.body.error : undefined,
    });
    if (this.calls.length > 1000) this.calls.splice(0, this.calls.length - 1000);
    return result;
  }

  private dispatch(method: string, args: Args, bearer: string | undefined): ApiResult {
    const handler = this.handlers[method];
    if (!handler || !Object.hasOwn(this.handlers, method)) {
      this.state.note('warn', `The app called ${method}, which the sandbox does not implement.`);
      return { status: 200, body: { ok: false, error: 'unknown_method' } };
    }
    const fault = this.faults.get(method)?.shift();
    if (fault) {
      const error = fault.error ?? (fault.status === 429 ? 'ratelimited' : 'internal_error');
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      return { status: fault.status, headers, body: { ok: false, error } };
    }
    const refused = this.authProblem(method, bearer ?? str(args, 'token'));
    if (refused) return { status: 200, body: { ok: false, error: refused } };
    try {
      return { status: 200, body: { ok: true, ...handler(args) } };
    } catch (e) {
      if (e instanceof ApiError) {
        const body: Record<string, unknown> = { ok: false, error: e.error };
        if (e.messages) body.response_metadata = { messages: e.messages };
        return { status: 200, body };
      }
      this.state.note('error', `${method} failed inside the sandbox: ${errMessage(e)}`);
      return { status: 200, body: { ok: false, error: 'internal_error' } };
    }
  }

  /** Slack's error for a missing or wrong token; api.test and OAuth exchanges need none. */
  private authProblem(method: string, token: string | undefined): string | undefined {
    if (method === 'api.test' || method.startsWith('oauth.')) return undefined;
    if (!token) return 'not_authed';
    return this.acceptsToken(token) ? undefined : 'invalid_auth';
  }

  private channelArg(args: Args, key = 'channel'): SandboxChannel {
    const id = str(args, key);
    const channel = id ? this.state.channels.get(id) : undefined;
    return channel ?? fail('channel_not_found');
  }

  private viewArg(args: Args, type: 'modal' | 'home'): Record<string, unknown> {
    const view = json(args, 'view', 'invalid_arguments');
    if (view === undefined) fail('invalid_arguments', ['[ERROR] missing required field: view']);
    const problems = validateView(view, type);
    if (problems.length > 0) fail('invalid_arguments', problems);
    const spec = view as Record<string, unknown>;
    const externalId = typeof spec.external_id === 'string' ? spec.external_id : '';
    return { ...spec, external_id: externalId };
  }

  private checkExternalId(spec: Record<string, unknown>, ownId?: string): void {
    const ext = spec.external_id;
    if (typeof ext !== 'string' || ext === '') return;
    const other = this.state.viewByExternalId(ext);
    if (other && other.view.id !== ownId) fail('duplicate_external_id');
  }

  private buildHandlers(): Record<string, Handler> {
    const s = this.state;
    return {
      'api.test': (args) => ({ args: Object.keys(args).length > 0 ? args : undefined }),

      'auth.test': () => ({
        url: `${s.baseUrl}/`,
        team: s.team.name,
        user: s.bot.name,
        team_id: s.team.id,
        user_id: s.bot.botUserId,
        bot_id: s.bot.botId,
        is_enterprise_install: false,
      }),

      'chat.postMessage': (args) => {
        const id = str(args, 'channel');
        const channel = (id && s.resolvePostChannel(id)) || fail('channel_not_found');
        if (!channel.members.has(s.bot.botUserId)) fail('not_in_channel');
        const content = messageContent(args);
        const threadTs = str(args, 'thread_ts');
        const message = s.addMessage({
          channel: channel.id,
          user: s.bot.botUserId,
          botId: s.bot.botId,
          ...content,
          threadTs,
          metadata: metadataArg(args),
        });
        return { channel: channel.id, ts: message.ts, message: s.messageObject(message) };
      },

      'chat.postEphemeral': (args) => {
        const id = str(args, 'channel');
        const channel = (id && s.resolvePostChannel(id)) || fail('channel_not_found');
        const userId = str(args, 'user') ?? '';
        if (!s.users.has(userId)) fail('user_not_found');
        if (!channel.members.has(userId)) fail('user_not_in_channel');
        const content = messageContent(args);
        const message = s.addMessage({
          channel: channel.id,
          user: s.bot.botUserId,
          botId: s.bot.botId,
          ...content,
          threadTs: str(args, 'thread_ts'),
          ephemeralTo: userId,
        });
        return { message_ts: message.ts };
      },

      'chat.update': (args) => {
        const channel = this.channelArg(args);
        const ts = str(args, 'ts') ?? '';
        const message = s.findMessage(channel.id, ts);
        if (!message || message.ephemeralTo !== undefined) fail('message_not_found');
        if (message.user !== s.bot.botUserId) fail('cant_update_message');
        const content = messageContent(args);
        const updated = s.replaceMessage(message, content, s.bot.botUserId);
        const obj = s.messageObject(updated);
        return { channel: channel.id, ts, text: updated.text, message: obj };
      },

      'chat.delete': (args) => {
        const channel = this.channelArg(args);
        const ts = str(args, 'ts') ?? '';
        const message = s.findMessage(channel.id, ts);
        if (!message || message.ephemeralTo !== undefined) fail('message_not_found');
        if (message.user !== s.bot.botUserId) fail('cant_delete_message');
        s.deleteMessage(message);
        return { channel: channel.id, ts };
      },

      'reactions.add': (args) => {
        const channel = this.channelArg(args);
        const message = s.findMessage(channel.id, str(args, 'timestamp') ?? '');
        if (!message || message.ephemeralTo !== undefined) fail('message_not_found');
        const name = str(args, 'name') ?? '';
        if (!/^[a-z0-9_+-]{1,100}$/.test(name)) fail('invalid_name');
        s.addReaction(message, name, s.bot.botUserId);
        return {};
      },

      'chat.getPermalink': (args) => {
        const channel = this.channelArg(args);
        const ts = str(args, 'message_ts') ?? '';
        const message = s.findMessage(channel.id, ts);
        if (!message || message.ephemeralTo !== undefined) fail('message_not_found');
        return {
          channel: channel.id,
          permalink: `${s.baseUrl}/archives/${channel.id}/p${ts.replace('.', '')}`,
        };
      },

      'views.open': (args) => {
        const spec = this.viewArg(args, 'modal');
        this.checkExternalId(spec);
        const trigger = s.exchangeTrigger(args.trigger_id);
        if ('error' in trigger) {
          const missing = trigger.error === 'invalid_arguments';
          fail(trigger.error, missing ? ['[ERROR] missing required field: trigger_id'] : undefined);
        }
        return { view: s.openModal(trigger.userId, spec) };
      },

      'views.push': (args) => {
        const spec = this.viewArg(args, 'modal');
        this.checkExternalId(spec);
        const trigger = s.exchangeTrigger(args.trigger_id);
        if ('error' in trigger) fail(trigger.error);
        const stack = s.stackOf(trigger.userId);
        if (stack.length === 0) {
          fail('invalid_arguments', [
            '[ERROR] no modal is open for this user; views.push needs a trigger_id from an interaction in an open modal',
          ]);
        }
        if (stack.length >= MAX_VIEW_STACK) fail('push_limit_reached');
        return { view: s.pushModal(trigger.userId, spec) };
      },

      'views.update': (args) => {
        const viewId = str(args, 'view_id');
        const externalId = str(args, 'external_id');
        if (!viewId && !externalId) {
          fail('invalid_arguments', ['[ERROR] either view_id or external_id is required']);
        }
        const stored = viewId ? s.views.get(viewId) : s.viewByExternalId(externalId ?? '');
        if (!stored) return fail('not_found');
        const spec = this.viewArg(args, stored.view.type);
        this.checkExternalId(spec, stored.view.id);
        const hash = str(args, 'hash');
        if (hash !== undefined && hash !== stored.view.hash) fail('hash_conflict');
        return { view: s.replaceView(stored.view.id, spec) };
      },

      'views.publish': (args) => {
        const userId = str(args, 'user_id') ?? '';
        const user = s.users.get(userId);
        if (!user || user.isBot) fail('invalid_arguments', ['[ERROR] invalid `user_id`']);
        const spec = this.viewArg(args, 'home');
        const current = s.homeViews.get(userId);
        this.checkExternalId(spec, current);
        const hash = str(args, 'hash');
        const currentHash = current ? s.views.get(current)?.view.hash : undefined;
        if (hash !== undefined && currentHash !== undefined && hash !== currentHash) {
          fail('hash_conflict');
        }
        const view: SlackView = s.publishHome(userId, spec);
        return { view };
      },

      'users.info': (args) => {
        const user = s.users.get(str(args, 'user') ?? '') ?? fail('user_not_found');
        return { user: s.userObject(user) };
      },

      // The channels (not DMs) a person is in, one page (the sandbox has few).
      'users.conversations': (args) => {
        const userId = str(args, 'user') ?? s.bot.botUserId;
        if (!s.users.has(userId) && userId !== s.bot.botUserId) fail('user_not_found');
        const channels = [...s.channels.values()].filter(
          (c) => c.kind === 'channel' && c.members.has(userId),
        );
        return {
          channels: channels.map((c) => s.channelObject(c)),
          response_metadata: { next_cursor: '' },
        };
      },

      'users.lookupByEmail': (args) => {
        const user = s.userByEmail(str(args, 'email') ?? '') ?? fail('users_not_found');
        return { user: s.userObject(user) };
      },

      'users.list': () => ({
        members: [...s.users.values()].map((u) => s.userObject(u)),
        cache_ts: Math.floor(Date.now() / 1000),
        response_metadata: { next_cursor: '' },
      }),

      'conversations.open': (args) => {
        const channelId = str(args, 'channel');
        const returnIm = bool(args, 'return_im');
        if (channelId) {
          const channel = this.channelArg(args);
          return { channel: returnIm ? s.channelObject(channel) : { id: channel.id } };
        }
        const users = (str(args, 'users') ?? '')
          .split(',')
          .map((u) => u.trim())
          .filter((u) => u.length > 0);
        if (users.length === 0) fail('users_list_not_supplied');
        if (users.length > 1) {
          s.note(
            'warn',
            'conversations.open with several users (a group DM) is not in the sandbox.',
          );
          fail('invalid_arguments', ['[ERROR] group DMs are not supported by the sandbox']);
        }
        const user = s.users.get(users[0]);
        if (!user || user.isBot) fail('user_not_found');
        const im = s.imFor(users[0]) ?? fail('user_not_found');
        return {
          no_op: true,
          already_open: true,
          channel: returnIm ? s.channelObject(im) : { id: im.id },
        };
      },

      'conversations.info': (args) => ({ channel: s.channelObject(this.channelArg(args)) }),

      'conversations.history': (args) => {
        const channel = this.channelArg(args);
        if (!channel.members.has(s.bot.botUserId)) fail('not_in_channel');
        return historyPage(s, channel.id, args);
      },

      'files.info': (args) => {
        const file = s.files.get(str(args, 'file') ?? '') ?? fail('file_not_found');
        return { file, comments: [], response_metadata: { next_cursor: '' } };
      },
    };
  }
}

/** "1712345678.000123" as a number of microseconds, exactly (a double would round). */
function tsMicros(ts: string): bigint | undefined {
  const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(ts.trim());
  if (!m) return undefined;
  return BigInt(m[1]) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/**
 * conversations.history: the channel's top-level messages, newest first, between `oldest` and
 * `latest`, `limit` per page with Slack's `next_ts:` cursors. Ephemeral messages never show;
 * message metadata only with include_all_metadata, as in Slack.
 */
function historyPage(s: SandboxState, channelId: string, args: Args): Record<string, unknown> {
  const limitText = str(args, 'limit');
  const limit = limitText === undefined ? 100 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 0) fail('invalid_limit');
  const pageSize = limit === 0 ? 100 : Math.min(limit, 999);
  const bound = (key: string): bigint | undefined => {
    const v = str(args, key);
    if (v === undefined || v === '') return undefined;
    return tsMicros(v) ?? fail(`invalid_ts_${key}`);
  };
  const oldest = bound('oldest');
  let latest = bound('latest');
  const inclusive = bool(args, 'inclusive');
  const cursor = str(args, 'cursor');
  if (cursor) {
    const decoded = /^next_ts:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
    if (!decoded) fail('invalid_cursor');
    latest = BigInt(decoded[1]);
  }
  const withMetadata = bool(args, 'include_all_metadata');
  const all = (s.messages.get(channelId) ?? [])
    .filter((m) => m.ephemeralTo === undefined && (!m.threadTs || m.threadTs === m.ts))
    .map((m) => ({ m, at: tsMicros(m.ts) ?? 0n }))
    .filter(({ at }) => {
      if (oldest !== undefined && (inclusive ? at < oldest : at <= oldest)) return false;
      // A cursor continues strictly below the last message returned.
      if (latest !== undefined && (inclusive && !cursor ? at > latest : at >= latest)) {
        return false;
      }
      return true;
    })
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const page = all.slice(0, pageSize);
  const hasMore = all.length > page.length;
  const last = page.at(-1);
  return {
    messages: page.map(({ m }) => {
      const { metadata, ...rest } = s.messageObject(m);
      return withMetadata && metadata !== undefined ? { ...rest, metadata } : rest;
    }),
    has_more: hasMore,
    pin_count: 0,
    channel_actions_ts: null,
    channel_actions_count: 0,
    response_metadata: {
      next_cursor: hasMore && last ? Buffer.from(`next_ts:${last.at}`).toString('base64') : '',
    },
  };
}
