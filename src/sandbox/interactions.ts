// What happens when a sandbox user does something: the signed request Slack would send the app
// (slash command, block_actions, view_submission/view_closed, shortcuts, app_home_opened), and
// what Slack does with the app's HTTP answer (command responses, `response_action`s), and the
// block_suggestion asked while a user types into an external_select. Also the response_url
// endpoint's logic. The page's buttons and the tests both come through here.

import { STATEFUL_TYPES, shown } from './block-kit.js';
import { validateBlocks, validateView } from './block-validation.js';
import { type Container, containerKey, locate } from './container.js';
import { eventCallback, messageEvent } from './event-callbacks.js';
import type { LinkPreviews } from './link-previews.js';
import type { AppSurface } from './manifest.js';
import { type BodyKind, type Delivery, deliverSigned } from './signer.js';
import { nextTs } from './slack-ids.js';
import {
  MAX_VIEW_STACK,
  RESPONSE_URL_MAX_USES,
  RESPONSE_URL_TTL_MS,
  type SandboxChannel,
  type SandboxMessage,
  type SandboxState,
  type SlackView,
} from './state.js';
import {
  minQueryLength,
  OfferedOptions,
  offeredIn,
  readSuggestionAnswer,
  SUGGESTION_TYPES,
  type SuggestResult,
} from './suggestions.js';
import {
  actionObject,
  buildState,
  type RawValue,
  type RawValues,
  type StateContext,
} from './view-state.js';

/** What the page (or a test) learns from an interaction. */
export interface InteractionResult {
  ok: boolean;
  /** A sentence for the user when something went wrong. */
  problem?: string;
  /** Per block_id, messages to show under modal fields. */
  errors?: Record<string, string>;
  /** The HTTP status the app answered with (0: no answer). */
  status?: number;
}

export interface InteractionOptions {
  signingSecret: string;
  verificationToken: string;
  appUrl: () => string | undefined;
  surface: () => AppSurface;
  /** Slack gives the app 3 seconds to answer. */
  timeoutMs?: number;
  /** Link previews: link_shared after a message, the side panel (link-previews.ts). */
  previews?: LinkPreviews;
}

const TROUBLE = 'We had some trouble connecting. Try again?';

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Text as Slack hands it on: &, < and > escaped; with `tokens`, typed @handles, #channels and
 * links become <@U…|name>, <#C…|name> and <url> (messages always; commands with should_escape).
 */
export function slackText(raw: string, state: SandboxState, tokens: boolean): string {
  let text = raw.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  if (!tokens) return text;
  text = text.replace(
    /(^|[\s(])@([a-z0-9][\w-]*(?:\.[\w-]+)*)(?![@\w])/gi,
    (match, before: string, handle: string) => {
      const wanted = handle.toLowerCase();
      const user = state
        .humans()
        .find((u) => u.name === wanted || u.realName.split(' ')[0].toLowerCase() === wanted);
      return user ? `${before}<@${user.id}|${user.name}>` : match;
    },
  );
  text = text.replace(/(^|[\s(])#([a-z0-9][\w-]*)/gi, (match, before: string, name: string) => {
    const channel = [...state.channels.values()].find(
      (c) => c.kind === 'channel' && c.name === name.toLowerCase(),
    );
    return channel ? `${before}<#${channel.id}|${channel.name}>` : match;
  });
  return text.replace(/(^|[\s(])(https?:\/\/[^\s<>]+[^\s<>.,;:!?)])/g, '$1<$2>');
}

export class Interactions {
  /** Options the app offered for external_selects, so a choice reaches it as the whole option. */
  private readonly offered = new OfferedOptions();

  constructor(
    private readonly state: SandboxState,
    private readonly opts: InteractionOptions,
  ) {}

  private get stateContext(): StateContext {
    const s = this.state;
    return {
      userExists: (id) => s.users.has(id),
      channelExists: (id) => s.channels.has(id),
      makeFile: (url) => s.addFile(url, ''),
    };
  }

  private contextFor(userId: string, container: Container): StateContext {
    const key = containerKey(container);
    return {
      ...this.stateContext,
      makeFile: (url) => this.state.addFile(url, userId),
      offered: (blockId, actionId, value) => this.offered.find(key, blockId, actionId, value),
    };
  }

  private team() {
    return { id: this.state.team.id, domain: this.state.team.domain };
  }

  private userRef(userId: string) {
    const u = this.state.users.get(userId);
    return {
      id: userId,
      username: u?.name ?? '',
      name: u?.name ?? '',
      team_id: this.state.team.id,
    };
  }

  private human(userId: string) {
    const u = this.state.users.get(userId);
    return u && !u.isBot ? u : undefined;
  }

  private async deliver(kind: BodyKind, data: Record<string, unknown>, what: string) {
    const url = this.opts.appUrl();
    if (!url) {
      this.state.note('error', `${what}: no app is connected to the sandbox yet.`);
      const none: Delivery = {
        status: 0,
        body: '',
        contentType: '',
        ms: 0,
        failure: 'network',
        detail: 'no app URL',
      };
      return none;
    }
    const d = await deliverSigned({
      url,
      signingSecret: this.opts.signingSecret,
      kind,
      data,
      timeoutMs: this.opts.timeoutMs,
    });
    if (d.failure) {
      this.state.note('warn', `${what}: the app did not answer (${d.failure}: ${d.detail}).`);
    } else if (d.status < 200 || d.status >= 300) {
      this.state.note('warn', `${what}: the app answered HTTP ${d.status}.`);
    }
    return d;
  }

  /** An ephemeral note from Slack itself, such as a failed command. */
  private slackbotSays(userId: string, channelId: string, text: string): void {
    this.state.addMessage({
      channel: channelId,
      user: 'USLACKBOT',
      text,
      ephemeralTo: userId,
      fromSlackbot: true,
    });
  }

  private postAppMessage(
    userId: string,
    channel: SandboxChannel,
    body: Record<string, unknown>,
    where: string,
  ): SandboxMessage | undefined {
    const text = typeof body.text === 'string' ? body.text : '';
    const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
    const attachments = Array.isArray(body.attachments) ? body.attachments : undefined;
    if (blocks) {
      const problems = validateBlocks(blocks, 'message');
      if (problems.length > 0) {
        this.state.note('warn', `${where}: invalid blocks — ${problems.join('; ')}`);
        return undefined;
      }
    }
    if (!text && !blocks?.length && !attachments?.length) return undefined;
    const inChannel = body.response_type === 'in_channel';
    return this.state.addMessage({
      channel: channel.id,
      user: this.state.bot.botUserId,
      botId: this.state.bot.botId,
      text,
      blocks,
      attachments,
      threadTs: typeof body.thread_ts === 'string' ? body.thread_ts : undefined,
      ephemeralTo: inChannel ? undefined : userId,
    });
  }

  private memberChannel(userId: string, channelId: string): SandboxChannel | undefined {
    const channel = this.state.channels.get(channelId);
    return channel?.members.has(userId) ? channel : undefined;
  }

  // ---- composer ----

  /** What the composer does with a line: a slash command, or a plain message. */
  async sendMessage(
    userId: string,
    channelId: string,
    text: string,
    /** A reply in the thread of this message. */
    threadTs?: string,
  ): Promise<InteractionResult> {
    if (!this.human(userId)) return { ok: false, problem: `There is no user ${userId}.` };
    const channel = this.memberChannel(userId, channelId);
    if (!channel) return { ok: false, problem: `You are not in channel ${channelId}.` };
    const trimmed = text.trim();
    if (trimmed.length === 0) return { ok: false, problem: 'Type a message first.' };
    if (trimmed.startsWith('/')) {
      const [command = ''] = trimmed.split(/\s+/);
      const known = this.opts.surface().commands.find((c) => c.command === command.toLowerCase());
      if (!known) {
        this.slackbotSays(
          userId,
          channel.id,
          `\`${command}\` is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
        );
        return { ok: true };
      }
      const args = slackText(
        trimmed.slice(command.length).trim(),
        this.state,
        known.shouldEscape === true,
      );
      return this.slashCommand(userId, channel, known.command, args);
    }
    const parent = threadTs ? this.state.findMessage(channel.id, threadTs) : undefined;
    if (
      threadTs &&
      (!parent ||
        parent.ephemeralTo !== undefined ||
        (parent.threadTs !== undefined && parent.threadTs !== parent.ts))
    ) {
      return { ok: false, problem: 'There is no such message to reply to in this channel.' };
    }
    const message = this.state.addMessage({
      channel: channel.id,
      user: userId,
      text: slackText(trimmed, this.state, true),
      threadTs,
    });
    const event = messageEvent(this.state, channel, message, this.opts.surface().botEvents);
    if (event) {
      const body = eventCallback(this.state, this.opts.verificationToken, event);
      await this.deliver('event', body, `message in #${this.state.channelName(channel)}`);
    }
    const shared = this.opts.previews?.linkShared(channel, message, this.opts.surface().botEvents);
    if (shared) {
      const body = eventCallback(this.state, this.opts.verificationToken, shared);
      await this.deliver('event', body, `links in #${this.state.channelName(channel)}`);
    }
    return { ok: true };
  }

  /** A person opens a link preview's details: the app is asked for the side panel. */
  async entityDetails(
    userId: string,
    channelId: string,
    ts: string,
    url: string,
  ): Promise<InteractionResult> {
    const message = this.state.findMessage(channelId, ts);
    if (!this.opts.previews || !message?.unfurl) {
      return { ok: false, problem: 'That message has no preview.' };
    }
    this.state.panels.delete(userId);
    const event = this.opts.previews.detailsRequested(userId, message, url);
    const body = eventCallback(this.state, this.opts.verificationToken, event);
    await this.deliver('event', body, 'a preview’s details');
    return { ok: true };
  }

  closePanel(userId: string): InteractionResult {
    this.state.panels.delete(userId);
    this.state.changed();
    return { ok: true };
  }

  async slashCommand(
    userId: string,
    channel: SandboxChannel,
    command: string,
    text: string,
  ): Promise<InteractionResult> {
    const s = this.state;
    const user = this.human(userId);
    if (!user) return { ok: false, problem: `There is no user ${userId}.` };
    const hook = s.newResponseHook(userId, channel.id);
    const d = await this.deliver(
      'command',
      {
        token: this.opts.verificationToken,
        team_id: s.team.id,
        team_domain: s.team.domain,
        channel_id: channel.id,
        channel_name: s.channelName(channel),
        user_id: userId,
        user_name: user.name,
        command,
        text,
        api_app_id: s.bot.appId,
        is_enterprise_install: 'false',
        response_url: s.responseUrl(hook),
        trigger_id: s.issueTrigger(userId),
      },
      `${command} ${text}`.trim(),
    );
    if (d.failure === 'timeout' || d.status === 0 || d.status < 200 || d.status >= 300) {
      const error = d.failure === 'timeout' ? 'operation_timeout' : 'dispatch_failed';
      this.slackbotSays(userId, channel.id, `${command} failed with the error "${error}"`);
      return {
        ok: false,
        status: d.status,
        problem: `${command} failed with the error "${error}"`,
      };
    }
    const body = d.body.trim();
    if (body.length > 0) {
      const parsed = parseJsonObject(body) ?? { text: body };
      if (parsed.response_type === 'in_channel') {
        // Slack shows the invocation above an in-channel answer.
        s.addMessage({ channel: channel.id, user: userId, text: `${command} ${text}`.trim() });
      }
      const posted = this.postAppMessage(userId, channel, parsed, `${command} answer`);
      if (posted) hook.original = { channel: posted.channel, ts: posted.ts };
    }
    return { ok: true, status: d.status };
  }

  // ---- response_url ----

  /** A POST to a response_url; answers as Slack does (200 "ok", or 404 for a dead URL). */
  respond(hookId: string, raw: unknown): { status: number; text: string } {
    const s = this.state;
    const hook = s.hooks.get(hookId);
    if (!hook || Date.now() - hook.createdAt > RESPONSE_URL_TTL_MS) {
      return { status: 404, text: 'expired_url' };
    }
    if (hook.uses >= RESPONSE_URL_MAX_USES) return { status: 404, text: 'used_url' };
    const body = typeof raw === 'string' ? parseJsonObject(raw) : (raw as Record<string, unknown>);
    if (!body || typeof body !== 'object') return { status: 400, text: 'invalid_payload' };
    const flag = (v: unknown) => v === true || v === 'true';
    const original = hook.original
      ? s.findMessage(hook.original.channel, hook.original.ts)
      : undefined;
    if (flag(body.delete_original)) {
      hook.uses += 1;
      if (original) s.deleteMessage(original);
      return { status: 200, text: 'ok' };
    }
    const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
    if (blocks && validateBlocks(blocks, 'message').length > 0) {
      return { status: 400, text: 'invalid_blocks' };
    }
    const text = typeof body.text === 'string' ? body.text : '';
    const hasAttachments = Array.isArray(body.attachments) && body.attachments.length > 0;
    if (!text && !blocks?.length && !hasAttachments) return { status: 400, text: 'no_text' };
    const channel = s.channels.get(hook.channelId);
    if (!channel) return { status: 404, text: 'channel_not_found' };
    // Only accepted posts count towards the five uses.
    hook.uses += 1;
    if (flag(body.replace_original) && original) {
      const attachments = hasAttachments ? (body.attachments as unknown[]) : undefined;
      s.replaceMessage(original, { text, blocks, attachments }, s.bot.botUserId);
      return { status: 200, text: 'ok' };
    }
    const posted = this.postAppMessage(hook.userId, channel, body, 'response_url');
    if (posted) hook.original = { channel: posted.channel, ts: posted.ts };
    return { status: 200, text: 'ok' };
  }

  // ---- block actions ----

  async blockAction(input: {
    userId: string;
    container: Container;
    blockId: string;
    actionId: string;
    value?: RawValue;
    /** The modal's current input values (for actions inside a view). */
    viewValues?: RawValues;
  }): Promise<InteractionResult> {
    const s = this.state;
    const { userId, container } = input;
    if (!this.human(userId)) return { ok: false, problem: `There is no user ${userId}.` };
    const found = locate(s, userId, container, input.blockId, input.actionId);
    if (!found.ok) return { ok: false, problem: found.problem };
    const ctx = this.contextFor(userId, container);
    const actionTs = nextTs();
    const payload: Record<string, unknown> = {
      type: 'block_actions',
      user: this.userRef(userId),
      api_app_id: s.bot.appId,
      token: this.opts.verificationToken,
      team: this.team(),
      enterprise: null,
      is_enterprise_install: false,
    };
    let what: string;
    if (found.message) {
      const message = found.message;
      const channel = s.channels.get(message.channel);
      const action = actionObject(found.element, input.blockId, input.value, ctx, actionTs);
      const values: Record<string, Record<string, unknown>> = {};
      if (STATEFUL_TYPES.has(found.element.type)) {
        const { action_id: _a, block_id: _b, action_ts: _t, ...rest } = action;
        values[input.blockId] = { [input.actionId]: rest };
      }
      const hook = s.newResponseHook(userId, message.channel, {
        channel: message.channel,
        ts: message.ts,
      });
      const ephemeral = message.ephemeralTo !== undefined;
      Object.assign(payload, {
        container: {
          type: 'message',
          message_ts: message.ts,
          channel_id: message.channel,
          is_ephemeral: ephemeral,
        },
        trigger_id: s.issueTrigger(userId),
        channel: channel ? { id: channel.id, name: s.channelName(channel) } : undefined,
        // Slack leaves the message out for ephemeral messages; apps answer via response_url.
        ...(ephemeral ? {} : { message: s.messageObject(message) }),
        state: { values },
        response_url: s.responseUrl(hook),
        actions: [action],
      });
      what = `Action ${input.actionId}`;
    } else {
      const view = found.view;
      const raw: RawValues = { ...(input.viewValues ?? {}) };
      if (input.value !== undefined && STATEFUL_TYPES.has(found.element.type)) {
        raw[input.blockId] = { ...(raw[input.blockId] ?? {}), [input.actionId]: input.value };
      }
      view.state.values = buildState(view.blocks, raw, ctx, false).values;
      Object.assign(payload, {
        container: { type: 'view', view_id: view.id },
        trigger_id: s.issueTrigger(userId),
        view,
        state: view.state,
        actions: [actionObject(found.element, input.blockId, input.value, ctx, actionTs)],
      });
      what = `Action ${input.actionId} in view ${view.callback_id || view.id}`;
    }
    const d = await this.deliver('interactivity', payload, what);
    if (d.status < 200 || d.status >= 300) {
      return { ok: false, status: d.status, problem: 'The app did not respond to that action.' };
    }
    return { ok: true, status: d.status };
  }

  // ---- select menus with an external data source ----

  /**
   * What the user typed into an external_select, sent to the app as a signed block_suggestion
   * (the options load URL is the app's request URL here); its options, remembered for the
   * container, go back to the page. Fewer characters than `min_query_length` ask nothing.
   */
  async suggest(input: {
    userId: string;
    container: Container;
    blockId: string;
    actionId: string;
    value: string;
  }): Promise<SuggestResult> {
    const s = this.state;
    const { userId, container } = input;
    if (!this.human(userId)) return { ok: false, problem: `There is no user ${userId}.` };
    const found = locate(s, userId, container, input.blockId, input.actionId);
    if (!found.ok) return { ok: false, problem: found.problem };
    if (!SUGGESTION_TYPES.has(found.element.type)) {
      return { ok: false, problem: 'That element does not load options from the app.' };
    }
    if (input.value.length < minQueryLength(found.element)) return { ok: true, options: [] };
    const where = found.view
      ? { container: { type: 'view', view_id: found.view.id }, view: found.view }
      : {
          container: {
            type: 'message',
            message_ts: found.message.ts,
            channel_id: found.message.channel,
            is_ephemeral: found.message.ephemeralTo !== undefined,
          },
          channel: { id: found.message.channel, name: this.channelNameOf(found.message.channel) },
        };
    const what = `Options for ${input.actionId}`;
    const d = await this.deliver(
      'interactivity',
      {
        type: 'block_suggestion',
        user: this.userRef(userId),
        team: this.team(),
        api_app_id: s.bot.appId,
        token: this.opts.verificationToken,
        action_id: input.actionId,
        block_id: input.blockId,
        value: input.value,
        enterprise: null,
        is_enterprise_install: false,
        ...where,
      },
      what,
    );
    const result = readSuggestionAnswer(d, (text) => s.note('warn', `${what}: ${text}`));
    if (result.ok) {
      const options = offeredIn(result);
      this.offered.remember(containerKey(container), input.blockId, input.actionId, options);
    }
    return result;
  }

  private channelNameOf(id: string): string {
    const channel = this.state.channels.get(id);
    return channel ? this.state.channelName(channel) : '';
  }

  // ---- views ----

  async submitView(input: {
    userId: string;
    viewId: string;
    values: RawValues;
  }): Promise<InteractionResult> {
    const s = this.state;
    const { userId } = input;
    const top = s.topModal(userId);
    if (!top || top.view.id !== input.viewId) {
      return { ok: false, problem: 'That modal is no longer open.' };
    }
    const view = top.view;
    const ctx = this.contextFor(userId, { type: 'view', viewId: view.id });
    const { values, errors } = buildState(view.blocks, input.values, ctx, true);
    view.state.values = values;
    if (Object.keys(errors).length > 0) return { ok: false, errors };
    const payload = {
      type: 'view_submission',
      team: this.team(),
      user: this.userRef(userId),
      api_app_id: s.bot.appId,
      token: this.opts.verificationToken,
      trigger_id: s.issueTrigger(userId),
      view,
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
    const where = `Submitting ${view.callback_id || view.id}`;
    const d = await this.deliver('interactivity', payload, where);
    if (d.status < 200 || d.status >= 300) return { ok: false, status: d.status, problem: TROUBLE };
    const text = d.body.trim();
    const answer = text.length === 0 ? {} : parseJsonObject(text);
    if (!answer) {
      s.note('warn', `${where}: the app answered with something other than JSON.`);
      return { ok: false, status: d.status, problem: TROUBLE };
    }
    return this.applyResponseAction(userId, view, answer, where, d.status);
  }

  private applyResponseAction(
    userId: string,
    view: SlackView,
    answer: Record<string, unknown>,
    where: string,
    status: number,
  ): InteractionResult {
    const s = this.state;
    const action = answer.response_action;
    const bad = (why: string): InteractionResult => {
      s.note('warn', `${where}: ${why}`);
      return { ok: false, status, problem: TROUBLE };
    };
    switch (action) {
      case undefined:
        s.closeModals(userId, false);
        return { ok: true, status };
      case 'clear':
        s.closeModals(userId, true);
        return { ok: true, status };
      case 'errors': {
        const errors = answer.errors;
        if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) {
          return bad('response_action "errors" without an errors object.');
        }
        const inputIds = new Set(
          view.blocks.filter((b) => b.type === 'input').map((b) => b.block_id),
        );
        const out: Record<string, string> = {};
        for (const [blockId, message] of Object.entries(errors)) {
          if (!inputIds.has(blockId)) {
            return bad(
              `response_action "errors" names block_id "${blockId}", which is not an input block of the view.`,
            );
          }
          out[blockId] = shown(message);
        }
        return { ok: false, status, errors: out };
      }
      case 'update':
      case 'push': {
        const problems = validateView(answer.view, 'modal');
        if (problems.length > 0)
          return bad(`invalid view in response_action "${action}": ${problems.join('; ')}`);
        const spec = answer.view as Record<string, unknown>;
        if (action === 'update') {
          s.replaceView(view.id, spec);
        } else {
          if (s.stackOf(userId).length >= MAX_VIEW_STACK)
            return bad('push_limit_reached: at most 3 views in a stack.');
          s.pushModal(userId, spec);
        }
        return { ok: true, status };
      }
      default:
        return bad(`unknown response_action "${shown(action)}".`);
    }
  }

  async closeView(input: { userId: string; viewId: string }): Promise<InteractionResult> {
    const s = this.state;
    const top = s.topModal(input.userId);
    if (!top || top.view.id !== input.viewId) {
      return { ok: false, problem: 'That modal is no longer open.' };
    }
    const view = top.view;
    s.closeModals(input.userId, view.clear_on_close);
    if (!view.notify_on_close) return { ok: true };
    const d = await this.deliver(
      'interactivity',
      {
        type: 'view_closed',
        team: this.team(),
        user: this.userRef(input.userId),
        api_app_id: s.bot.appId,
        token: this.opts.verificationToken,
        view,
        is_cleared: view.clear_on_close,
        is_enterprise_install: false,
        enterprise: null,
      },
      `Closing ${view.callback_id || view.id}`,
    );
    return { ok: d.status >= 200 && d.status < 300, status: d.status };
  }

  // ---- shortcuts and events ----

  async shortcut(input: {
    userId: string;
    callbackId: string;
    /** For message shortcuts: the message. */
    channel?: string;
    ts?: string;
  }): Promise<InteractionResult> {
    const s = this.state;
    if (!this.human(input.userId))
      return { ok: false, problem: `There is no user ${input.userId}.` };
    const isMessage = input.channel !== undefined;
    const known = this.opts
      .surface()
      .shortcuts.find(
        (x) => x.callbackId === input.callbackId && x.type === (isMessage ? 'message' : 'global'),
      );
    if (!known) return { ok: false, problem: `The app has no shortcut "${input.callbackId}".` };
    const base = {
      token: this.opts.verificationToken,
      action_ts: nextTs(),
      team: this.team(),
      user: this.userRef(input.userId),
      is_enterprise_install: false,
      enterprise: null,
      callback_id: input.callbackId,
      trigger_id: s.issueTrigger(input.userId),
    };
    let payload: Record<string, unknown>;
    if (isMessage) {
      const message = s.findMessage(input.channel ?? '', input.ts ?? '');
      const channel = s.channels.get(input.channel ?? '');
      if (!message || !channel || !s.canSee(input.userId, message) || message.ephemeralTo) {
        return { ok: false, problem: 'That message cannot be used with a shortcut.' };
      }
      const hook = s.newResponseHook(input.userId, channel.id);
      payload = {
        type: 'message_action',
        ...base,
        channel: { id: channel.id, name: s.channelName(channel) },
        message_ts: message.ts,
        message: s.messageObject(message),
        response_url: s.responseUrl(hook),
      };
    } else {
      payload = { type: 'shortcut', ...base };
    }
    const d = await this.deliver('interactivity', payload, `Shortcut "${known.name}"`);
    if (d.status < 200 || d.status >= 300) {
      return { ok: false, status: d.status, problem: 'The app did not respond to the shortcut.' };
    }
    return { ok: true, status: d.status };
  }

  async openHome(input: { userId: string; tab: 'home' | 'messages' }): Promise<InteractionResult> {
    const s = this.state;
    if (!this.human(input.userId))
      return { ok: false, problem: `There is no user ${input.userId}.` };
    const im = s.imFor(input.userId);
    const homeId = s.homeViews.get(input.userId);
    const view = homeId ? s.views.get(homeId)?.view : undefined;
    const eventTs = nextTs();
    const d = await this.deliver(
      'event',
      eventCallback(s, this.opts.verificationToken, {
        type: 'app_home_opened',
        user: input.userId,
        channel: im?.id,
        tab: input.tab,
        event_ts: eventTs,
        ...(view && input.tab === 'home' ? { view } : {}),
      }),
      `app_home_opened (${input.tab})`,
    );
    return { ok: d.status >= 200 && d.status < 300, status: d.status };
  }
}
