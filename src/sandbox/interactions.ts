// What happens when a sandbox user does something: the signed request Slack would send the app
// and what Slack does with the app's answer. The page's buttons and the tests both come
// through this one object; each kind of interaction lives in its own file:
//   composer.ts          messages and slash commands
//   block-actions.ts     buttons, menus and pickers (block_actions), type-ahead (block_suggestion)
//   view-submissions.ts  view_submission with its response_actions, view_closed
//   shortcuts.ts         global and message shortcuts
//   app-tabs.ts          app_home_opened, a link preview's side panel
//   response-url.ts      posts to a response_url
// app-link.ts holds what they share (signed delivery, payload pieces).

import { AppLink, type InteractionOptions, type InteractionResult } from './app-link.js';
import { entityDetails, openHome } from './app-tabs.js';
import { type BlockActionInput, blockAction, type SuggestInput, suggest } from './block-actions.js';
import { sendMessage, slashCommand } from './composer.js';
import type { RawValues } from './element-values.js';
import type { SandboxChannel } from './records.js';
import { respond } from './response-url.js';
import { type ShortcutInput, shortcut } from './shortcuts.js';
import type { SandboxState } from './state.js';
import type { SuggestResult } from './suggestions.js';
import { closeView, submitView } from './view-submissions.js';

export type { InteractionOptions, InteractionResult } from './app-link.js';

export class Interactions {
  private readonly link: AppLink;

  constructor(
    private readonly state: SandboxState,
    opts: InteractionOptions,
  ) {
    this.link = new AppLink(state, opts);
  }

  /** What the composer does with a line: a slash command, or a plain message. */
  sendMessage(
    userId: string,
    channelId: string,
    text: string,
    /** A reply in the thread of this message. */
    threadTs?: string,
  ): Promise<InteractionResult> {
    return sendMessage(this.link, userId, channelId, text, threadTs);
  }

  slashCommand(
    userId: string,
    channel: SandboxChannel,
    command: string,
    text: string,
  ): Promise<InteractionResult> {
    return slashCommand(this.link, userId, channel, command, text);
  }

  /** A person opens a link preview's details: the app is asked for the side panel. */
  entityDetails(
    userId: string,
    channel: string,
    ts: string,
    url: string,
  ): Promise<InteractionResult> {
    return entityDetails(this.link, userId, { channel, ts, url });
  }

  closePanel(userId: string): InteractionResult {
    this.state.panels.delete(userId);
    this.state.changed();
    return { ok: true };
  }

  /** A POST to a response_url; answers as Slack does (200 "ok", or 404 for a dead URL). */
  respond(hookId: string, raw: string): { status: number; text: string } {
    return respond(this.link, hookId, raw);
  }

  blockAction(input: BlockActionInput): Promise<InteractionResult> {
    return blockAction(this.link, input);
  }

  /** What the user typed into an external_select, as a block_suggestion to the app. */
  suggest(input: SuggestInput): Promise<SuggestResult> {
    return suggest(this.link, input);
  }

  submitView(input: {
    userId: string;
    viewId: string;
    values: RawValues;
  }): Promise<InteractionResult> {
    return submitView(this.link, input);
  }

  closeView(input: { userId: string; viewId: string }): Promise<InteractionResult> {
    return closeView(this.link, input);
  }

  shortcut(input: ShortcutInput): Promise<InteractionResult> {
    return shortcut(this.link, input);
  }

  openHome(input: { userId: string; tab: 'home' | 'messages' }): Promise<InteractionResult> {
    return openHome(this.link, input);
  }
}
