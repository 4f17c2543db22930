// The shapes the sandbox page works with, for the type checker only (the page is JavaScript
// checked with // @ts-check and JSDoc; see tsconfig.json here): the snapshot /sandbox/state
// sends (page-api.ts builds it to this type, so server and page cannot drift apart), Block Kit as
// the server and the page read it (block-kit.ts takes its shapes from here; loose, as the
// sandbox's checks in block-validation.ts have let it through), JSON the
// app sent unchecked (attachments, link previews: AppJson, read with care), and the context the
// drawing functions share. It imports only the page's own mrkdwn.d.ts: nothing here may pull
// Node's types into the page's check.

import type { MrkdwnContext } from './mrkdwn.js';

// ---------- Block Kit, as the sandbox (server and page) reads it ----------

export interface TextObj {
  type: string;
  text: string;
  emoji?: boolean;
  verbatim?: boolean;
}

export interface OptionObj {
  text: TextObj;
  value: string;
  description?: TextObj;
  url?: string;
}

export interface OptionGroup {
  label: TextObj;
  options: OptionObj[];
}

/** Slack's confirmation dialog on a button or menu. */
export interface ConfirmObj {
  title?: TextObj;
  text?: TextObj;
  confirm?: TextObj;
  deny?: TextObj;
  style?: string;
}

/** One interactive element, or an image or text in a context block. */
export interface ElementObj {
  type: string;
  action_id?: string;
  /** A text object; in a context block's text element, the text itself. */
  text?: TextObj | string;
  /** A context block's plain_text element: whether :emoji: are drawn. */
  emoji?: boolean;
  value?: string;
  url?: string;
  style?: string;
  confirm?: ConfirmObj;
  placeholder?: TextObj;
  options?: OptionObj[];
  option_groups?: OptionGroup[];
  initial_option?: OptionObj;
  initial_options?: OptionObj[];
  initial_value?: string | number;
  initial_date?: string;
  initial_time?: string;
  initial_user?: string;
  initial_users?: string[];
  initial_conversation?: string;
  initial_conversations?: string[];
  initial_channel?: string;
  initial_channels?: string[];
  multiline?: boolean;
  min_length?: number;
  max_length?: number;
  is_decimal_allowed?: boolean;
  min_value?: string;
  max_value?: string;
  max_selected_items?: number;
  /** external_select: characters typed before the app is asked (Slack's default: 3). */
  min_query_length?: number;
  max_files?: number;
  image_url?: string;
  alt_text?: string;
  dispatch_action_config?: { trigger_actions_on?: string[] };
}

/** An inline piece of rich text (text with styles, a link, a mention, an emoji). */
export interface RichTextItem {
  type: string;
  text?: string;
  url?: string;
  user_id?: string;
  channel_id?: string;
  name?: string;
  style?: { bold?: boolean; italic?: boolean; strike?: boolean; code?: boolean };
}

/** A part of a rich_text block: a section, list, quote or preformatted text. */
export interface RichTextPart {
  type: string;
  style?: string;
  elements?: (RichTextItem & RichTextPart)[];
}

export interface BlockObj {
  type: string;
  block_id?: string;
  text?: TextObj | string;
  fields?: TextObj[];
  accessory?: ElementObj;
  /** actions and context blocks: elements; rich_text: its parts. */
  elements?: (ElementObj & RichTextPart)[];
  element?: ElementObj;
  label?: TextObj;
  hint?: TextObj;
  optional?: boolean;
  dispatch_action?: boolean;
  image_url?: string;
  alt_text?: string;
  title?: TextObj;
}

// ---------- the snapshot (/sandbox/state) ----------

export interface PageUser {
  id: string;
  name: string;
  realName: string;
  email: string;
  tz: string;
  title: string;
  isBot: boolean;
  color: string;
}

export interface PageChannel {
  id: string;
  name: string;
  kind: 'channel' | 'im';
  topic: string;
}

export interface PageReaction {
  name: string;
  /** Who reacted, in order. */
  users: string[];
}

/** JSON the app sent that the sandbox keeps as it came (the page reads it with care). */
export type AppJson = Record<string, unknown>;

/** The app's chat.unfurl for a message: url → unfurl, and its Work Object entities. */
export interface PageUnfurl {
  unfurls: Record<string, unknown>;
  entities: AppJson[];
}

export interface PageMessage {
  ts: string;
  user: string;
  fromBot: boolean;
  fromSlackbot: boolean;
  text: string;
  blocks: BlockObj[] | null;
  /** Legacy attachments, as the app sent them. */
  attachments: AppJson[] | null;
  unfurl: PageUnfurl | null;
  threadTs: string | null;
  ephemeral: boolean;
  edited: boolean;
  reactions: PageReaction[];
}

export interface PageView {
  id: string;
  type: 'modal' | 'home';
  hash: string;
  callback_id: string;
  title?: TextObj;
  submit?: TextObj | null;
  close?: TextObj | null;
  blocks: BlockObj[];
}

export interface PageCommand {
  command: string;
  description: string;
  usageHint: string;
}

export interface PageShortcut {
  type: 'global' | 'message';
  name: string;
  callbackId: string;
  description: string;
}

export interface PageLogEntry {
  at: string;
  level: 'info' | 'warn' | 'error';
  text: string;
}

export interface PageSnapshot {
  version: number;
  team: { id: string; name: string; domain: string };
  app: {
    name: string;
    commands: PageCommand[];
    shortcuts: PageShortcut[];
    homeTab: boolean;
    messagesTab: boolean;
    botUserId: string;
    imChannel: string | null;
  };
  /** The person the snapshot is for (null: the asked-for id is no person). */
  me: string | null;
  users: PageUser[];
  channels: PageChannel[];
  startChannel: string | null;
  messages: Record<string, PageMessage[]>;
  modals: PageView[];
  home: PageView | null;
  /** The side panel: a Work Object's details (entity.presentDetails), or why there are none. */
  panel: AppJson | null;
  log: PageLogEntry[];
}

// ---------- what the page posts and gets back ----------

/** A value as /sandbox/action and /sandbox/submit take it. */
export type RawValue = string | string[] | null;
export type RawValues = Record<string, Record<string, RawValue>>;

/** Where an element lives, as /sandbox/action and /sandbox/suggest name it. */
export type Container =
  | { type: 'message'; channel: string; ts: string }
  | { type: 'view'; viewId: string };

/** The answer to a /sandbox/* POST (the server's InteractionResult). */
export interface InteractionAnswer {
  ok: boolean;
  /** A sentence for the person when something went wrong. */
  problem?: string;
  /** Per block_id, messages to show under modal fields. */
  errors?: Record<string, string>;
  /** The HTTP status the app answered with (0: no answer). */
  status?: number;
}

/** The answer to /sandbox/suggest: the options the app offered (the server's SuggestResult). */
export interface SuggestAnswer {
  ok: boolean;
  problem?: string;
  status?: number;
  options?: OptionObj[];
  option_groups?: OptionGroup[];
}

/** The answer to /sandbox/workflows/run: the step's outputs, its error, or why it did not run. */
export type StepRunAnswer =
  | { ok: true; state: 'completed'; outputs: Record<string, unknown> }
  | { ok: true; state: 'failed'; error: string }
  | { ok: false; problem: string };

// ---------- drawing ----------

/** Names for mentions and the reader's time zone (mrkdwn.d.ts). */
export type { MrkdwnContext } from './mrkdwn.js';

export type OnAction = (block: BlockObj, element: ElementObj, value: RawValue) => unknown;

/** What the Block Kit drawing functions get from the page. */
export interface BlockContext {
  surface: 'message' | 'modal' | 'home';
  mk: MrkdwnContext;
  people: { id: string; realName: string }[];
  channelList: { id: string; label: string }[];
  confirm: (c: ConfirmObj) => Promise<boolean>;
  onAction: OnAction;
  /** Asks the app for an external_select's options (absent: none can be loaded here). */
  suggest?: (block: BlockObj, element: ElementObj, typed: string) => Promise<SuggestAnswer>;
  /** Modals: the app's errors under fields, by block_id. */
  errors?: Record<string, string>;
  /** Modals: the person changed this input (kept across views.update). */
  markDirty?: (blockId: string | undefined, actionId: string | undefined) => void;
}
