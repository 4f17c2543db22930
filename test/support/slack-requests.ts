/**
 * Correctly SIGNED Slack requests to the app (v0 HMAC-SHA256 over `v0:<ts>:<body>`, with
 * X-Slack-Request-Timestamp), shaped like Slack's own: form-encoded slash commands,
 * form-encoded `payload=` for interactivity, JSON event_callback for events.
 *
 *   const slack = new SlackRequests({ url: handle.eventsUrl, signingSecret, fake });
 *   const res = await slack.slashCommand('help', { userId: 'U_BOB' });
 *   res.status; res.json; res.responseUrl   // the response_url the fake will record posts on
 *
 * Every sender takes `{ forgeSignature: true }` or `{ timestamp: <unix s> }` (stale) to test
 * rejection. Responses carry `status`, `text` and `json` (for response_action bodies).
 */
import { randomUUID } from 'node:crypto';
import { encodeBody, slackSignature } from '../../src/sandbox/signer.js';
import type { FakeSlack } from './fake-slack.js';

export interface SignOptions {
  /** Sign with a wrong secret. */
  forgeSignature?: boolean;
  /** Unix seconds to sign with (default now); e.g. now - 600 for a stale request. */
  timestamp?: number;
  /** More headers, e.g. Slack's `x-slack-retry-num` on a retried event. */
  headers?: Record<string, string>;
}

export interface SlackResponse {
  status: number;
  text: string;
  json?: Record<string, unknown>;
  /** The response_url sent in the payload (slash commands, actions, message shortcuts). */
  responseUrl?: string;
  /** The trigger_id sent in the payload. */
  triggerId?: string;
}

export interface Who {
  userId?: string;
  teamId?: string;
  channelId?: string;
}

/** A modal as submitted: `values` is Slack's view.state.values (see textValues()). */
export interface SubmittedView {
  callbackId: string;
  values: Record<string, Record<string, unknown>>;
  privateMetadata?: string;
  id?: string;
  blocks?: unknown[];
}

export interface SlackRequestsOptions {
  /** The app's /slack/events URL. */
  url: string;
  signingSecret: string;
  /** Serves the response_urls; without it they point nowhere. */
  fake?: FakeSlack;
  /** Makes response_urls when there is no `fake` object at hand (e.g. in a worker thread). */
  responseUrl?: () => string;
  teamId?: string;
  userId?: string;
  channelId?: string;
  apiAppId?: string;
}

/** Slack's view.state.values for text inputs: { block: { action: 'text' } }. */
export function textValues(
  values: Record<string, Record<string, string>>,
): Record<string, Record<string, { type: string; value: string }>> {
  const out: Record<string, Record<string, { type: string; value: string }>> = {};
  for (const [block, actions] of Object.entries(values)) {
    out[block] = {};
    for (const [action, value] of Object.entries(actions)) {
      out[block][action] = { type: 'plain_text_input', value };
    }
  }
  return out;
}

export class SlackRequests {
  readonly teamId: string;
  readonly userId: string;
  readonly channelId: string;
  private readonly apiAppId: string;

  constructor(private readonly options: SlackRequestsOptions) {
    this.teamId = options.teamId ?? 'T_TEST';
    this.userId = options.userId ?? 'U_ALICE';
    this.channelId = options.channelId ?? 'C_GENERAL';
    this.apiAppId = options.apiAppId ?? 'A_WORKLINK';
  }

  private who(w: Who = {}) {
    return {
      userId: w.userId ?? this.userId,
      teamId: w.teamId ?? this.teamId,
      channelId: w.channelId ?? this.channelId,
    };
  }

  /** A trigger_id as Slack sends with an interaction; the fake Slack accepts it for `userId`. */
  private newTriggerId(userId: string): string {
    const id = `trig.${randomUUID()}`;
    this.options.fake?.admitTrigger(id, userId);
    return id;
  }

  private newResponseUrl(): string {
    return (
      this.options.fake?.responseUrl() ??
      this.options.responseUrl?.() ??
      `http://127.0.0.1:9/response/${randomUUID()}`
    );
  }

  /** `/work <text>`. */
  async slashCommand(
    text: string,
    opts: Who & SignOptions & { command?: string } = {},
  ): Promise<SlackResponse> {
    const w = this.who(opts);
    const responseUrl = this.newResponseUrl();
    const triggerId = this.newTriggerId(w.userId);
    const { body, contentType } = encodeBody('command', {
      token: 'legacy-verification-token',
      team_id: w.teamId,
      team_domain: 'test',
      channel_id: w.channelId,
      channel_name: 'general',
      user_id: w.userId,
      user_name: w.userId.toLowerCase(),
      command: opts.command ?? '/work',
      text,
      api_app_id: this.apiAppId,
      is_enterprise_install: 'false',
      response_url: responseUrl,
      trigger_id: triggerId,
    });
    const res = await this.send(body, contentType, opts);
    return { ...res, responseUrl, triggerId };
  }

  /** A button/select press; `container` defaults to an ephemeral message in the channel. */
  async blockAction(
    action: {
      actionId: string;
      blockId?: string;
      value?: string;
      type?: string;
      selectedOption?: { value: string; text?: string };
      /** Checkboxes: every option ticked now. */
      selectedOptions?: { value: string; text?: string }[];
    },
    opts: Who &
      SignOptions & { view?: Record<string, unknown>; message?: Record<string, unknown> } = {},
  ): Promise<SlackResponse> {
    const w = this.who(opts);
    const responseUrl = opts.view ? undefined : this.newResponseUrl();
    const triggerId = this.newTriggerId(w.userId);
    const act: Record<string, unknown> = {
      action_id: action.actionId,
      block_id: action.blockId ?? 'b1',
      type: action.type ?? (action.selectedOption ? 'static_select' : 'button'),
      action_ts: `${Date.now() / 1000}`,
    };
    if (action.value !== undefined) act.value = action.value;
    if (action.selectedOption) {
      act.selected_option = {
        value: action.selectedOption.value,
        text: {
          type: 'plain_text',
          text: action.selectedOption.text ?? action.selectedOption.value,
        },
      };
    }
    const payload: Record<string, unknown> = {
      type: 'block_actions',
      user: { id: w.userId, username: w.userId.toLowerCase(), name: w.userId, team_id: w.teamId },
      api_app_id: this.apiAppId,
      token: 'legacy-verification-token',
      trigger_id: triggerId,
      team: { id: w.teamId, domain: 'test' },
      enterprise: null,
      is_enterprise_install: false,
      actions: [act],
    };
    if (action.selectedOptions) {
      act.selected_options = action.selectedOptions.map((o) => ({
        value: o.value,
        text: { type: 'plain_text', text: o.text ?? o.value },
      }));
    }
    if (opts.view) {
      // The modal the action happened in is open in Slack for this user.
      const id = typeof opts.view.id === 'string' ? opts.view.id : 'V_TEST';
      const hash = typeof opts.view.hash === 'string' ? opts.view.hash : undefined;
      this.options.fake?.admitView(w.userId, { id, hash });
      payload.container = { type: 'view', view_id: opts.view.id };
      payload.view = { team_id: w.teamId, type: 'modal', state: { values: {} }, ...opts.view };
    } else {
      payload.container = {
        type: 'message',
        message_ts: '1700000000.000100',
        channel_id: w.channelId,
        is_ephemeral: true,
      };
      payload.channel = { id: w.channelId, name: 'general' };
      payload.message = opts.message ?? { type: 'message', ts: '1700000000.000100', text: '' };
      payload.response_url = responseUrl;
    }
    const res = await this.sendPayload(payload, opts);
    return { ...res, responseUrl, triggerId };
  }

  /** Submitting a modal. `values` is Slack's view.state.values (see textValues()). */
  async viewSubmission(view: SubmittedView, opts: Who & SignOptions = {}): Promise<SlackResponse> {
    const w = this.who(opts);
    const triggerId = this.newTriggerId(w.userId);
    return {
      ...(await this.sendPayload(
        {
          type: 'view_submission',
          team: { id: w.teamId, domain: 'test' },
          user: {
            id: w.userId,
            username: w.userId.toLowerCase(),
            name: w.userId,
            team_id: w.teamId,
          },
          api_app_id: this.apiAppId,
          token: 'legacy-verification-token',
          trigger_id: triggerId,
          enterprise: null,
          is_enterprise_install: false,
          response_urls: [],
          view: this.viewJson(w.teamId, view),
        },
        opts,
      )),
      triggerId,
    };
  }

  async viewClosed(
    view: { callbackId: string; privateMetadata?: string; id?: string },
    opts: Who & SignOptions = {},
  ): Promise<SlackResponse> {
    const w = this.who(opts);
    return this.sendPayload(
      {
        type: 'view_closed',
        team: { id: w.teamId, domain: 'test' },
        user: { id: w.userId, username: w.userId.toLowerCase(), name: w.userId, team_id: w.teamId },
        api_app_id: this.apiAppId,
        token: 'legacy-verification-token',
        is_cleared: false,
        is_enterprise_install: false,
        view: this.viewJson(w.teamId, { ...view, values: {} }),
      },
      opts,
    );
  }

  /** A message shortcut on `message` (text, ts, user, files…). */
  async messageShortcut(
    callbackId: string,
    message: Record<string, unknown>,
    opts: Who & SignOptions = {},
  ): Promise<SlackResponse> {
    const w = this.who(opts);
    const responseUrl = this.newResponseUrl();
    const triggerId = this.newTriggerId(w.userId);
    const msg = { type: 'message', ts: '1700000000.000200', user: w.userId, text: '', ...message };
    const res = await this.sendPayload(
      {
        type: 'message_action',
        callback_id: callbackId,
        trigger_id: triggerId,
        message_ts: msg.ts,
        response_url: responseUrl,
        team: { id: w.teamId, domain: 'test' },
        channel: { id: w.channelId, name: 'general' },
        user: { id: w.userId, username: w.userId.toLowerCase(), name: w.userId, team_id: w.teamId },
        message: msg,
        token: 'legacy-verification-token',
        action_ts: `${Date.now() / 1000}`,
        is_enterprise_install: false,
        enterprise: null,
      },
      opts,
    );
    return { ...res, responseUrl, triggerId };
  }

  async globalShortcut(callbackId: string, opts: Who & SignOptions = {}): Promise<SlackResponse> {
    const w = this.who(opts);
    const triggerId = this.newTriggerId(w.userId);
    const res = await this.sendPayload(
      {
        type: 'shortcut',
        callback_id: callbackId,
        trigger_id: triggerId,
        team: { id: w.teamId, domain: 'test' },
        user: { id: w.userId, username: w.userId.toLowerCase(), team_id: w.teamId },
        token: 'legacy-verification-token',
        action_ts: `${Date.now() / 1000}`,
        is_enterprise_install: false,
        enterprise: null,
      },
      opts,
    );
    return { ...res, triggerId };
  }

  /** An Events API event_callback around `event` (e.g. { type: 'app_uninstalled' }). */
  async event(
    event: Record<string, unknown>,
    opts: { teamId?: string } & SignOptions = {},
  ): Promise<SlackResponse> {
    const teamId = opts.teamId ?? this.teamId;
    const body = JSON.stringify({
      token: 'legacy-verification-token',
      team_id: teamId,
      api_app_id: this.apiAppId,
      event: { event_ts: `${Date.now() / 1000}`, ...event },
      type: 'event_callback',
      event_id: `Ev${randomUUID().replace(/-/g, '').slice(0, 10)}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        {
          enterprise_id: null,
          team_id: teamId,
          user_id: 'U_WORKLINK',
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    });
    return this.send(body, 'application/json', opts);
  }

  /** Sends an interactivity payload (form-encoded `payload=<json>`). */
  sendPayload(payload: Record<string, unknown>, opts: SignOptions = {}): Promise<SlackResponse> {
    const { body, contentType } = encodeBody('interactivity', payload);
    return this.send(body, contentType, opts);
  }

  /** Signs and POSTs any body. */
  async send(body: string, contentType: string, opts: SignOptions = {}): Promise<SlackResponse> {
    const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
    const secret = opts.forgeSignature
      ? `${this.options.signingSecret}-forged`
      : this.options.signingSecret;
    // Signed as the sandbox signs what it delivers (src/sandbox/signer.ts): one copy of Slack's rule.
    const signature = slackSignature(secret, timestamp, body);
    const res = await fetch(this.options.url, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signature,
        ...opts.headers,
      },
      body,
    });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json };
  }

  private viewJson(teamId: string, view: SubmittedView) {
    return {
      id: view.id ?? 'V_TEST',
      team_id: teamId,
      type: 'modal',
      callback_id: view.callbackId,
      private_metadata: view.privateMetadata ?? '',
      state: { values: view.values },
      hash: 'h1',
      title: { type: 'plain_text', text: 'Test' },
      blocks: view.blocks ?? [],
      app_id: this.apiAppId,
      bot_id: 'B_WORKLINK',
      root_view_id: view.id ?? 'V_TEST',
      previous_view_id: null,
      clear_on_close: false,
      notify_on_close: false,
      external_id: '',
    };
  }
}
