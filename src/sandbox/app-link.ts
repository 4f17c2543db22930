// The sandbox's line to the app, shared by everything a person does (interactions.ts): the
// signed delivery of Slack's request to the app's URL, the pieces every payload carries (team,
// user), the context for reading a person's inputs, and what Slack does with a message the app
// answers with (a command's answer, a response_url post).

import { validateBlocks } from './block-validation.js';
import { type Container, containerKey } from './container.js';
import type { StateContext } from './element-values.js';
import type { LinkPreviews } from './link-previews.js';
import type { AppSurface } from './manifest.js';
import type { InteractionAnswer } from './page/types.js';
import type { SandboxChannel, SandboxMessage, SandboxUser } from './records.js';
import { type BodyKind, type Delivery, deliverSigned } from './signer.js';
import type { SandboxState } from './state.js';
import { OfferedOptions } from './suggestions.js';

/** What the page (or a test) learns from an interaction (typed once, for the page's check too). */
export type InteractionResult = InteractionAnswer;

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

/** What Slack's client says when the app's answer to a form was no good. */
export const TROUBLE = 'We had some trouble connecting. Try again?';

/** A 2xx answer: Slack takes it as the app having handled the request. */
export function answered(d: { status: number }): boolean {
  return d.status >= 200 && d.status < 300;
}

export class AppLink {
  /** Options the app offered for external_selects, so a choice reaches it as the whole option. */
  readonly offered = new OfferedOptions();

  constructor(
    readonly state: SandboxState,
    readonly opts: InteractionOptions,
  ) {}

  /** How a person's inputs in `container` are read (users, channels, files, offered options). */
  contextFor(userId: string, container: Container): StateContext {
    const s = this.state;
    const key = containerKey(container);
    return {
      userExists: (id) => s.users.has(id),
      channelExists: (id) => s.channels.has(id),
      makeFile: (url) => s.addFile(url, userId),
      offered: (blockId, actionId, value) => this.offered.find(key, blockId, actionId, value),
    };
  }

  team() {
    return { id: this.state.team.id, domain: this.state.team.domain };
  }

  userRef(userId: string) {
    const u = this.state.users.get(userId);
    return {
      id: userId,
      username: u?.name ?? '',
      name: u?.name ?? '',
      team_id: this.state.team.id,
    };
  }

  /** The person, if `userId` is one (not the bot, not unknown). */
  human(userId: string): SandboxUser | undefined {
    const u = this.state.users.get(userId);
    return u && !u.isBot ? u : undefined;
  }

  /** The channel, if `userId` is in it. */
  memberChannel(userId: string, channelId: string): SandboxChannel | undefined {
    const channel = this.state.channels.get(channelId);
    return channel?.members.has(userId) ? channel : undefined;
  }

  channelNameOf(id: string): string {
    const channel = this.state.channels.get(id);
    return channel ? this.state.channelName(channel) : '';
  }

  /** Sends Slack's signed request to the app; what went wrong is noted in the sandbox log. */
  async deliver(kind: BodyKind, data: Record<string, unknown>, what: string): Promise<Delivery> {
    const url = this.opts.appUrl();
    if (!url) {
      this.state.note('error', `${what}: no app is connected to the sandbox yet.`);
      return {
        status: 0,
        body: '',
        contentType: '',
        ms: 0,
        failure: 'network',
        detail: 'no app URL',
      };
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
    } else if (!answered(d)) {
      this.state.note('warn', `${what}: the app answered HTTP ${d.status}.`);
    }
    return d;
  }

  /** An ephemeral note from Slack itself, such as a failed command. */
  slackbotSays(userId: string, channelId: string, text: string): void {
    this.state.addMessage({
      channel: channelId,
      user: 'USLACKBOT',
      text,
      ephemeralTo: userId,
      fromSlackbot: true,
    });
  }

  /**
   * A message the app answered with (a command's answer, a response_url post): ephemeral for
   * `userId` unless `response_type` is in_channel; invalid blocks are noted and dropped.
   */
  postAppMessage(
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
}
