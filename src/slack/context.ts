/**
 * What every feature handler gets, built AFTER `ack()`:
 *
 *   const ctx = workContext(deps, args);         // args = the Bolt listener's arguments
 *   if (!(await requireConnection(ctx))) return; // answers "not connected" itself
 *   const task = await ctx.work.getTask(id);     // WorkClient for the team's connection
 *   await ctx.reply({ text: 'Done.' });          // ephemeral via response_url, else DM
 *
 * `deps` (WorklinkDeps) is the per-app bag of long-lived parts — store, config, logger,
 * caches — handed to every listener's `register(app, deps)`.
 */

import { createHash } from 'node:crypto';
import type { AllMiddlewareArgs, Logger } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { AppConfig } from '../config.js';
import { type Connection, DecryptError, type Store } from '../store/index.js';
import { WorkClient, type WorkClientOptions } from '../workapi/client.js';
import {
  APOLOGY,
  describeWorkError,
  type ErrorWording,
  KEY_UNREADABLE,
  NOT_CONNECTED,
} from './ui/messages/errors.js';

// ── Long-lived dependencies ─────────────────────────────────────────────────

export interface WorkUrls {
  baseUrl: string;
  altUrl: string;
}

/** A plain node:http handler for an extra route (e.g. POST /work/events). */
export type RouteHandler = (
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
) => void | Promise<void>;

export interface WorklinkDeps {
  config: AppConfig;
  store: Store;
  logger: Logger;
  /** The work-management service this app talks to. */
  workUrls: WorkUrls;
  /** Extra HTTP routes served beside /slack/events (HTTP and OAuth modes; Socket Mode on PORT). */
  routes: RouteRegistry;
  /** Hooks run once the app listens (handle known) and when it stops, e.g. outbox workers. */
  lifecycle: Lifecycle;
  /** users.info, cached: time zones and admin flags. */
  users: SlackUserDirectory;
  /** WorkClient per team + key, built lazily. */
  workClients: WorkClientCache;
  /** The embedded service, when this process started it (else undefined). */
  service?: { setEventsSubscriber(s: { url: string; secret: string }): void };
}

export class RouteRegistry {
  private readonly routes: { method: string; path: string; handler: RouteHandler }[] = [];

  /** Adds a route; `path` is exact (no patterns), `method` upper-case (GET, POST, …). */
  add(route: { method: string; path: string; handler: RouteHandler }): void {
    const method = route.method.toUpperCase();
    if (this.routes.some((r) => r.method === method && r.path === route.path)) {
      throw new Error(`Route ${method} ${route.path} is registered twice.`);
    }
    this.routes.push({ ...route, method });
  }

  find(method: string, path: string): RouteHandler | undefined {
    return this.routes.find((r) => r.method === method.toUpperCase() && r.path === path)?.handler;
  }

  get size(): number {
    return this.routes.length;
  }
}

export interface Lifecycle {
  onStart(fn: (handle: { url: string; eventsUrl: string }) => void | Promise<void>): void;
  onStop(fn: () => void | Promise<void>): void;
}

export interface SlackUser {
  id: string;
  tz?: string;
  isAdmin: boolean;
  isOwner: boolean;
  email?: string;
  name?: string;
}

/** users.info with a short cache; concurrent asks for one user share one call. */
export class SlackUserDirectory {
  private readonly cache = new Map<string, { at: number; user: Promise<SlackUser> }>();
  constructor(private readonly ttlMs = 5 * 60_000) {}

  get(client: WebClient, teamId: string, userId: string): Promise<SlackUser> {
    const key = `${teamId}:${userId}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.user;
    const user = client.users.info({ user: userId }).then((r) => ({
      id: userId,
      tz: r.user?.tz,
      isAdmin: Boolean(r.user?.is_admin),
      isOwner: Boolean(r.user?.is_owner || r.user?.is_primary_owner),
      email: r.user?.profile?.email,
      name: r.user?.real_name || r.user?.name,
    }));
    this.cache.set(key, { at: Date.now(), user });
    // A failed lookup is not remembered: the next ask tries again.
    user.catch(() => this.cache.delete(key));
    return user;
  }

  forget(teamId: string, userId: string): void {
    this.cache.delete(`${teamId}:${userId}`);
  }
}

/** One WorkClient per (team, key): a new key after `/work connect` gets a new client. */
export class WorkClientCache {
  private readonly clients = new Map<string, WorkClient>();
  constructor(
    private readonly urls: WorkUrls,
    /** Options every client gets (e.g. maxResponseBytes). */
    private readonly shared: Pick<WorkClientOptions, 'maxResponseBytes'> = {},
  ) {}

  for(connection: Pick<Connection, 'teamId' | 'apiKey'>): WorkClient {
    const keyHash = createHash('sha256').update(connection.apiKey).digest('hex').slice(0, 16);
    const id = `${connection.teamId}:${keyHash}`;
    let client = this.clients.get(id);
    if (!client) {
      // Drop the team's client for an older key.
      for (const k of this.clients.keys()) {
        if (k.startsWith(`${connection.teamId}:`)) this.clients.delete(k);
      }
      client = new WorkClient({ ...this.shared, ...this.urls, apiKey: connection.apiKey });
      this.clients.set(id, client);
    }
    return client;
  }

  /** A client for a key that is not stored yet (connect), with its own time limit. */
  adHoc(apiKey: string, timeoutMs?: number): WorkClient {
    return new WorkClient({ ...this.shared, ...this.urls, apiKey, timeoutMs });
  }
}

// ── Per-request context ─────────────────────────────────────────────────────

/** A reply to the person who acted. Ephemeral unless `response_type: 'in_channel'`. */
export interface ReplyMessage {
  text: string;
  blocks?: KnownBlock[];
  response_type?: 'ephemeral' | 'in_channel';
  replace_original?: boolean;
}

/** The plain ids a context is built from (for code outside Bolt listeners: workers, tests). */
export interface ContextInput {
  teamId: string;
  enterpriseId?: string;
  userId: string;
  channelId?: string;
  triggerId?: string;
  responseUrl?: string;
  /** Web API client with this team's bot token. */
  slack: WebClient;
  /** Bolt's respond (response_url), when the payload carried one. */
  respond?: (message: ReplyMessage) => Promise<unknown>;
}

export interface WorkContext extends ContextInput {
  deps: WorklinkDeps;
  store: Store;
  logger: Logger;
  /** The team's connection, or undefined (see `requireConnection`). */
  connection: Connection | undefined;
  /** Why `connection` is undefined although a row exists: the key cannot be decrypted. */
  connectionUnreadable: boolean;
  /** WorkClient for the connection; throws NotConnectedError when there is none. */
  readonly work: WorkClient;
  /** Always works: response_url if any, else an ephemeral in the channel, else a DM. */
  reply(message: ReplyMessage | string): Promise<void>;
  /** The acting user's IANA time zone from users.info (cached); 'UTC' when unknown. */
  userTimeZone(): Promise<string>;
}

export class NotConnectedError extends Error {
  override readonly name = 'NotConnectedError';
  constructor() {
    super(NOT_CONNECTED);
  }
}

/** The parts of Bolt's listener arguments the context needs (commands, actions, views…). */
export interface BoltArgsLike {
  context: AllMiddlewareArgs['context'];
  client: WebClient;
  body: unknown;
  respond?: (message: never) => Promise<unknown>;
}

interface PayloadIds {
  team_id?: string;
  enterprise_id?: string;
  user_id?: string;
  channel_id?: string;
  trigger_id?: string;
  response_url?: string;
  team?: { id?: string } | null;
  enterprise?: { id?: string } | null;
  user?: { id?: string; team_id?: string } | string;
  channel?: { id?: string } | string;
  container?: { channel_id?: string };
  event?: { user?: string | { id?: string }; channel?: string };
  response_urls?: { response_url?: string; channel_id?: string }[];
}

/** Builds the context from Bolt's arguments. Synchronous SQLite only; call it after ack. */
export function workContext(
  deps: WorklinkDeps,
  args: BoltArgsLike,
  overrides: { channelId?: string; responseUrl?: string } = {},
): WorkContext {
  const body = (args.body ?? {}) as PayloadIds;
  const userField = body.user;
  const eventUser = body.event?.user;
  const userId =
    args.context.userId ??
    body.user_id ??
    (typeof userField === 'string' ? userField : userField?.id) ??
    (typeof eventUser === 'string' ? eventUser : eventUser?.id) ??
    '';
  const teamId =
    args.context.teamId ??
    body.team_id ??
    body.team?.id ??
    (typeof userField === 'object' ? userField?.team_id : undefined) ??
    '';
  const channelField = body.channel;
  const channelId =
    overrides.channelId ??
    body.channel_id ??
    (typeof channelField === 'string' ? channelField : channelField?.id) ??
    body.container?.channel_id ??
    body.event?.channel ??
    body.response_urls?.[0]?.channel_id;
  const responseUrl =
    overrides.responseUrl ?? body.response_url ?? body.response_urls?.[0]?.response_url;
  return buildWorkContext(deps, {
    teamId,
    enterpriseId: args.context.enterpriseId ?? body.enterprise_id ?? body.enterprise?.id,
    userId,
    channelId,
    triggerId: body.trigger_id,
    responseUrl,
    slack: args.client,
    respond: args.respond as WorkContext['respond'],
  });
}

/** The context from plain ids (see ContextInput). */
export function buildWorkContext(deps: WorklinkDeps, input: ContextInput): WorkContext {
  let connection: Connection | undefined;
  let connectionUnreadable = false;
  try {
    connection = input.teamId ? deps.store.connections.get(input.teamId) : undefined;
  } catch (e) {
    if (!(e instanceof DecryptError)) throw e;
    connectionUnreadable = true;
  }
  const { slack, respond } = input;
  let workClient: WorkClient | undefined;
  const ctx: WorkContext = {
    deps,
    ...input,
    store: deps.store,
    logger: deps.logger,
    connection,
    connectionUnreadable,
    get work(): WorkClient {
      if (!ctx.connection) throw new NotConnectedError();
      workClient ??= deps.workClients.for(ctx.connection);
      return workClient;
    },
    async reply(message) {
      const msg: ReplyMessage = typeof message === 'string' ? { text: message } : message;
      const withType = { response_type: 'ephemeral' as const, ...msg };
      if (respond) {
        await respond(withType);
        return;
      }
      if (input.responseUrl) {
        await postToResponseUrl(input.responseUrl, withType);
        return;
      }
      if (input.channelId && withType.response_type === 'ephemeral') {
        try {
          await slack.chat.postEphemeral({
            channel: input.channelId,
            user: input.userId,
            text: msg.text,
            blocks: msg.blocks,
          });
          return;
        } catch {
          // Not in that channel (or it is gone): fall back to a DM below.
        }
      }
      await slack.chat.postMessage({
        channel:
          withType.response_type === 'in_channel' && input.channelId
            ? input.channelId
            : input.userId,
        text: msg.text,
        blocks: msg.blocks,
      });
    },
    async userTimeZone() {
      try {
        const user = await deps.users.get(slack, input.teamId, input.userId);
        return user.tz || 'UTC';
      } catch {
        return 'UTC';
      }
    },
  };
  return ctx;
}

async function postToResponseUrl(url: string, message: ReplyMessage): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`response_url answered HTTP ${res.status}`);
}

/**
 * The connection, or — after answering the user with one helpful sentence — undefined.
 *   const conn = await requireConnection(ctx); if (!conn) return;
 */
export async function requireConnection(ctx: WorkContext): Promise<Connection | undefined> {
  if (ctx.connection) return ctx.connection;
  await ctx.reply(ctx.connectionUnreadable ? KEY_UNREADABLE : NOT_CONNECTED);
  return undefined;
}

/**
 * Runs a handler body and turns any failure into a reply; never throws. Use it in every
 * action/view/shortcut listener after ack (the /work router already wraps subcommands):
 *   await runSafely(ctx, { action: 'mark the task complete', id }, async () => { … });
 */
export async function runSafely(
  ctx: WorkContext,
  wording: ErrorWording,
  fn: () => Promise<void>,
): Promise<void> {
  try {
    await fn();
  } catch (err) {
    await replyError(ctx, err, wording);
  }
}

/** Replies with the sentence for `err` (see describeWorkError); logs unexpected ones. */
export async function replyError(
  ctx: WorkContext,
  err: unknown,
  wording: ErrorWording,
): Promise<void> {
  const text = errorText(ctx, err, wording);
  try {
    await ctx.reply(text);
  } catch (replyErr) {
    ctx.logger.error(`Could not deliver an error reply to ${ctx.userId}: ${errMessage(replyErr)}`);
  }
}

/** The sentence for `err`; unexpected errors are logged (message + stack, no secrets). */
export function errorText(ctx: WorkContext, err: unknown, wording: ErrorWording): string {
  if (err instanceof NotConnectedError) return NOT_CONNECTED;
  if (err instanceof DecryptError) return KEY_UNREADABLE;
  const text = describeWorkError(err, wording);
  if (text === APOLOGY) {
    ctx.logger.error(`Unexpected failure while trying to ${wording.action}:`, err);
  }
  return text;
}

export function errMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
