// The records the sandbox Slack keeps in memory (state.ts holds them): people, channels,
// messages, views, triggers, response URLs and log lines, in the shapes the sandbox works with.
// What the app sees of them is built from these in slack-objects.ts.

import type { BlockObj, TextObj } from './block-kit.js';
import type { DEFAULT_BOT, SandboxUserSpec } from './workspace.js';

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

/** An emoji reaction on a message: its name (no colons) and who reacted, in order. */
export interface Reaction {
  name: string;
  users: string[];
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
  /** Emoji reactions (reactions.add), in the order they were first added. */
  reactions?: Reaction[];
}

export interface SlackView {
  id: string;
  team_id: string;
  type: 'modal' | 'home';
  title?: TextObj;
  submit: TextObj | null;
  close: TextObj | null;
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

export interface SandboxTeam {
  id: string;
  name: string;
  domain: string;
}

/** Who the workspace and the app are: what every Slack-shaped object carries. */
export interface WorkspaceIdentity {
  readonly team: SandboxTeam;
  readonly bot: typeof DEFAULT_BOT;
  /** The app's display name (its manifest's). */
  appName: string;
}
