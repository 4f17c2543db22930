/**
 * Bringing the Bolt app up in its mode: auth.test on the bot token first (a wrong token stops
 * start-up with one sentence), then listening — HTTP (the receiver's own server, with the
 * connection limits of http-guard.ts) or Socket Mode (its extra-route server, when any) — and
 * the base URL the app is reachable at.
 */
import type { Server } from 'node:http';
import type { App } from '@slack/bolt';
import { LogLevel, WebClient } from '@slack/web-api';
import type { AppConfig, HttpLimits } from '../../config.js';
import { errMessage } from '../../error-message.js';
import { slackCode } from '../ui/error-text.js';
import type { ConnectionShares } from './connection-limits.js';
import { applyServerLimits, serverOptions } from './http-guard.js';
import { StartupError } from './startup-error.js';

/** Starts the app in the configured mode; returns its base URL ('' when it serves none). */
export async function listen(
  app: App,
  config: AppConfig,
  where: { port: number; host?: string; limits: HttpLimits; shares?: ConnectionShares },
): Promise<string> {
  if (config.slack.mode === 'socket') {
    await app.start();
    const routeServer = socketModeServer(app);
    if (routeServer) applyServerLimits(routeServer, where.limits);
    return socketModeUrl(app, where.port);
  }
  const server: unknown = await app.start(
    { port: where.port, host: where.host },
    serverOptions(where.limits),
  );
  if (!isServer(server)) throw new StartupError('The Slack app did not start an HTTP server.');
  applyServerLimits(server, where.limits, where.shares);
  return serverUrl(server, where.host);
}

/** auth.test up front: a wrong token stops start-up with one sentence, not a later 401. */
export async function checkBotToken(
  token: string,
  slackApiUrl: string | undefined,
): Promise<{ botId: string; botUserId: string }> {
  const client = new WebClient(token, {
    slackApiUrl,
    retryConfig: { retries: 1, minTimeout: 500 },
    timeout: 10_000,
    // What went wrong is said in one sentence below (or not at all when the start fails
    // first for another reason: the check runs beside the store's opening); the client's own
    // warnings about a failed attempt would print before it.
    logLevel: LogLevel.ERROR,
  });
  try {
    const result = await client.auth.test();
    if (!result.bot_id || !result.user_id) {
      throw new StartupError('SLACK_BOT_TOKEN is not a bot token (auth.test named no bot).');
    }
    return { botId: result.bot_id, botUserId: result.user_id };
  } catch (e) {
    if (e instanceof StartupError) throw e;
    const code = slackCode(e);
    throw new StartupError(
      code
        ? `SLACK_BOT_TOKEN was refused by Slack (${code}).`
        : `Slack could not be reached to check SLACK_BOT_TOKEN (${errMessage(e)}).`,
    );
  }
}

function isServer(v: unknown): v is Server {
  return typeof v === 'object' && v !== null && 'address' in v && typeof v.address === 'function';
}

/** The port a listening server is on (undefined before it listens, or on a pipe). */
function portOf(server: Server | undefined): number | undefined {
  const address = server?.address();
  return address && typeof address === 'object' ? address.port : undefined;
}

function serverUrl(server: Server, host: string | undefined): string {
  let shown = host && host !== '0.0.0.0' && host !== '::' ? host : '127.0.0.1';
  if (shown.includes(':')) shown = `[${shown}]`;
  return `http://${shown}:${portOf(server)}`;
}

/** Socket Mode's receiver runs its own HTTP server for extra routes (when there are any). */
function socketModeServer(app: App): Server | undefined {
  const receiver: unknown = Reflect.get(app, 'receiver');
  if (typeof receiver !== 'object' || receiver === null) return undefined;
  const server: unknown = Reflect.get(receiver, 'httpServer');
  return isServer(server) ? server : undefined;
}

/** Where Socket Mode's route server listens. */
function socketModeUrl(app: App, fallbackPort: number): string {
  return `http://127.0.0.1:${portOf(socketModeServer(app)) ?? fallbackPort}`;
}
