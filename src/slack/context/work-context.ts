/**
 * What every feature handler gets, built AFTER `ack()`:
 *
 *   const ctx = await workContext(deps, args);   // args = the Bolt listener's arguments
 *   if (!(await requireConnection(ctx))) return; // answers "not connected" itself
 *   const task = await ctx.work.getTask(id);     // WorkClient for the team's connection
 *   await ctx.reply({ text: 'Done.' });          // ephemeral via response_url, else DM
 */

import type { AllMiddlewareArgs, Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { errMessage } from '../../error-message.js';
import { type Connection, DecryptError, type Store } from '../../store/index.js';
import type { WorkClient } from '../../workapi/client.js';
import { KEY_UNREADABLE, NOT_CONNECTED } from '../ui/error-text.js';
import { fitMessage } from '../ui/limits.js';
import type { WorklinkDeps } from './deps.js';
import { inheritOrgConnection } from './org-connection.js';
import { postToResponseUrl, type ReplyMessage } from './response-url.js';

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

/** Builds the context from Bolt's arguments (reads the connection); call it after ack. */
export async function workContext(
  deps: WorklinkDeps,
  args: BoltArgsLike,
  overrides: { channelId?: string; responseUrl?: string } = {},
): Promise<WorkContext> {
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
    // Replies to the payload's own response_url go through postToResponseUrl (its pool);
    // Bolt's respond stays only where another reply place was asked for.
    respond: overrides.responseUrl ? (args.respond as WorkContext['respond']) : undefined,
  });
}

/** The context from plain ids (see ContextInput). */
export async function buildWorkContext(
  deps: WorklinkDeps,
  input: ContextInput,
): Promise<WorkContext> {
  let connection: Connection | undefined;
  let connectionUnreadable = false;
  try {
    connection = input.teamId ? await deps.store.connections.get(input.teamId) : undefined;
    // A workspace of an organisation whose admin connected it as a whole (org-connection.ts).
    connection ??= await inheritOrgConnection(
      deps.store,
      deps.logger,
      input.teamId,
      input.enterpriseId,
    );
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
      // Every reply passes the one length guard (ui/limits.ts) on its way out.
      const msg: ReplyMessage = fitMessage(
        typeof message === 'string' ? { text: message } : message,
      );
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
        } catch (e) {
          // Not in that channel (or it is gone): fall back to a DM below.
          deps.logger.debug(`chat.postEphemeral failed, replying by DM: ${errMessage(e)}`);
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
      } catch (e) {
        deps.logger.debug(`users.info for the time zone failed, using UTC: ${errMessage(e)}`);
        return 'UTC';
      }
    },
  };
  return ctx;
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
