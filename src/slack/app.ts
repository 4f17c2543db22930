/**
 * Builds the Bolt App for the configured mode and registers each feature by calling it:
 * the `/work` router with every feature's subcommands, then each feature's listeners.
 * Kept thin: which receiver, which auth, which features — nothing else. Nothing registers
 * itself on import; what is not called here does not run.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { App, type AppOptions, ErrorCode, HTTPReceiver, type Logger } from '@slack/bolt';
import type { AppConfig } from '../config.js';
import { errMessage } from '../error-message.js';
import { boltLogLevel, withoutRequestBodies } from '../logger.js';
import { type Metrics, requestLabel } from '../metrics/metrics.js';
import { isStorageFault, reportStorageFault } from '../store/storage-fault.js';
import { type Subcommand, WorkRouter } from './commands/router.js';
import { connectionCommands } from './connection/commands.js';
import { orgConnectionCommands } from './connection/org-commands.js';
import { registerConnection } from './connection/register.js';
import { watchStatusSection } from './connection/watch-status.js';
import type { WorklinkDeps } from './context/deps.js';
import { slackFetch } from './context/slack-fetch.js';
import { answerUnreadableInstall } from './context/unreadable-installs.js';
import { digestCommands } from './digest/commands.js';
import { ListenerTable } from './dispatch.js';
import { feedCommands } from './feeds/commands.js';
import { registerThreadSync } from './feeds/thread-sync.js';
import { publishHome, registerHome } from './home/publish.js';
import { identityCommands } from './identity/commands.js';
import { registerIdentity } from './identity/register.js';
import { previewsCommand } from './links/previews-command.js';
import { registerUnfurls } from './links/unfurl.js';
import { answerOnFailure, normalizePayload } from './payload-guard.js';
import { outboxStatusSection, peopleCommands } from './people/commands.js';
import { projectCommands } from './projects/commands.js';
import { directoryCommands } from './projects/directory/commands.js';
import { registerProjectPick } from './projects/pick-action.js';
import { registerProjects } from './projects/register.js';
import { registerReminders, remindCommands } from './remind/commands.js';
import type { ConnectionShares } from './start/connection-limits.js';
import { DEFAULT_HTTP_LIMITS, guardSlackRequests } from './start/http-guard.js';
import { ReplayWindow } from './start/replay-window.js';
import { singleFlightAuthorize } from './start/token-refresh.js';
import { taskCommands } from './tasks/commands.js';
import { registerTasks } from './tasks/register.js';
import { registerWorkflowSteps } from './workflow/register.js';
import { failUnauthorizedStep } from './workflow/unauthorized-step.js';

/** The bot scopes Worklink asks for (manifest.yml lists the same; a test checks). */
export const BOT_SCOPES = [
  'commands',
  'chat:write',
  'users:read',
  'users:read.email',
  'im:write',
  // Reads the bot's own DMs to tell whether an interrupted send already arrived.
  'im:history',
  'files:read',
  // Feeds with sync: replies in a task card's thread (message.channels / message.groups).
  'channels:history',
  'groups:history',
  // App Home lists only the channel links of channels the reader is in (users.conversations).
  'channels:read',
  'groups:read',
  // Link previews: link_shared for the unfurl domains, chat.unfurl (docs/links.md).
  'links:read',
  'links:write',
  // Feeds with sync: a reaction on a thread reply that became a comment (docs/usage.md).
  'reactions:write',
] as const;

export const EVENTS_PATH = '/slack/events';
export const INSTALL_PATH = '/slack/install';
export const OAUTH_REDIRECT_PATH = '/slack/oauth_redirect';

export interface BuildAppOptions {
  /** Bot identity from auth.test (single-workspace modes), so Bolt need not ask again. */
  botIdentity?: { botId: string; botUserId: string };
  /** Socket Mode serves extra routes on this port. */
  port?: number;
  /** More `/work` subcommands, after the features' own (tests). */
  subcommands?: readonly Subcommand[];
  /** The server's connection shares, told which connections carried signed requests. */
  shares?: ConnectionShares;
  /** The requests taken in (written behind; the caller flushes it when stopping). */
  replays?: ReplayWindow;
}

/** Every `/work` subcommand, in the order help lists them (the router adds `help`). */
export function workSubcommands(extra: readonly Subcommand[] = []): Subcommand[] {
  return [
    ...connectionCommands([outboxStatusSection, watchStatusSection]),
    ...identityCommands,
    ...orgConnectionCommands,
    ...taskCommands,
    ...projectCommands,
    ...feedCommands,
    ...directoryCommands,
    ...peopleCommands,
    ...digestCommands,
    ...remindCommands,
    previewsCommand,
    ...extra,
  ];
}

/** What Bolt hands an extended error handler (`extendedErrorHandler: true`). */
type ExtendedErrorArgs = Parameters<Parameters<App['error']>[0]>[0];

export function buildApp(config: AppConfig, deps: WorklinkDeps, options: BuildAppOptions = {}) {
  const slack = config.slack;
  const clientOptions: AppOptions['clientOptions'] = {
    slackApiUrl: config.slackApiUrl,
    // A handler waits for its Web API calls; don't let Bolt's default retry them for 30 min.
    retryConfig: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 5_000 },
    timeout: 15_000,
    // undici's request on a pool of its own, not the global fetch (context/slack-fetch.ts).
    fetch: slackFetch,
  };
  // Every path that is not Slack's goes through the route registry (see RouteRegistry).
  const customRoutes = [
    {
      path: '/*path',
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
      handler: (req: IncomingMessage, res: ServerResponse) => serveRoute(deps, req, res),
    },
  ];
  // Bolt sets its logger to `logLevel` (info when absent): pass LOG_LEVEL, or it is lost.
  const common = {
    logger: deps.logger,
    logLevel: boltLogLevel(config.logLevel),
    clientOptions,
    // The error handler gets the request's body and context (to answer it).
    extendedErrorHandler: true,
    // No listener reads `context.conversation`: Bolt's default store would look each request
    // up before its listeners run, and make an Error for every miss (every request).
    convoStore: false as const,
  };

  const limits = { ...DEFAULT_HTTP_LIMITS, ...config.httpLimits };
  /**
   * Bolt's HTTP receiver behind the header, size, signature and replay checks; the guard's
   * signature check is the only one (the receiver is built with signatureVerification off).
   */
  const guarded = (receiver: HTTPReceiver, signingSecret: string) => {
    receiver.requestListener = guardSlackRequests(receiver.requestListener, {
      path: EVENTS_PATH,
      signingSecret,
      replays:
        options.replays ??
        new ReplayWindow({ store: deps.store.seenRequests, logger: deps.logger }),
      shares: options.shares,
      observeAck: deps.metrics && ackObserver(deps.metrics),
      limits,
      logger: deps.logger,
    });
    return receiver;
  };

  /** What the HTTP and OAuth receivers share. */
  const receiverBase = (signingSecret: string) => ({
    signingSecret,
    endpoints: EVENTS_PATH,
    customRoutes,
    logger: deps.logger,
    bodyLimit: limits.slackBodyBytes,
    // Checked by the guard (guarded, above), which every request to EVENTS_PATH goes through.
    signatureVerification: false,
  });

  let app: App;
  switch (slack.mode) {
    case 'http':
      app = new App({
        ...common,
        token: slack.botToken,
        ...options.botIdentity,
        receiver: guarded(new HTTPReceiver(receiverBase(slack.signingSecret)), slack.signingSecret),
      });
      break;
    case 'oauth': {
      const receiver = guarded(
        new HTTPReceiver({
          ...receiverBase(slack.signingSecret),
          clientId: slack.clientId,
          clientSecret: slack.clientSecret,
          stateSecret: slack.stateSecret,
          scopes: [...BOT_SCOPES],
          installationStore: deps.store.installations,
          installerOptions: {
            installPath: INSTALL_PATH,
            redirectUriPath: OAUTH_REDIRECT_PATH,
            // The Installation keeps `user.id` (the installer): permissions.ts relies on it.
            directInstall: true,
            clientOptions: { slackApiUrl: config.slackApiUrl },
          },
          // The installer's client takes this logger; its requests carry the client secret,
          // codes and refresh tokens, so it logs without request bodies.
          logger: withoutRequestBodies(deps.logger),
        }),
        slack.signingSecret,
      );
      if (receiver.installer) {
        singleFlightAuthorize(receiver.installer, { store: deps.store, logger: deps.logger });
      }
      app = new App({ ...common, receiver });
      break;
    }
    case 'socket':
      app = new App({
        ...common,
        token: slack.botToken,
        ...options.botIdentity,
        appToken: slack.appToken,
        socketMode: true,
        customRoutes,
        installerOptions: { port: options.port ?? config.port },
      });
      break;
    default:
      throw new Error(
        'The sandbox mode has no Slack app of its own: start it with src/sandbox, which runs this app in HTTP mode.',
      );
  }

  app.error(async ({ error, body, context }: ExtendedErrorArgs) => {
    // A workflow step of a workspace that cannot be authorized is failed, never left hanging.
    if (
      error.code === ErrorCode.AuthorizationError &&
      failUnauthorizedStep(deps, body, INSTALL_PATH)
    ) {
      return;
    }
    // A workspace whose installation the current key cannot open is told what to do.
    if (
      error.code === ErrorCode.AuthorizationError &&
      (await answerUnreadableInstall(
        deps.store,
        config,
        deps.logger,
        { body, context },
        INSTALL_PATH,
      ))
    ) {
      return;
    }
    // Listeners answer their own failures; this is the last guard. Message only: a Web API
    // error object carries request details we do not want in logs.
    if (isStorageFault(error.original ?? error)) {
      reportStorageFault(deps.logger, error.original ?? error);
      return;
    }
    deps.logger.error(`Unhandled error in a Slack listener: ${error.message}`);
  });

  // First in the chain: odd payload types made plain, and an answer for any that still fails.
  app.use(answerOnFailure(deps));
  app.use(normalizePayload);
  const { metrics } = deps;
  if (metrics) {
    // Slack's 429s by method (/metrics): the clients Bolt hands each listener, watched once.
    metrics.watchClient(app.client);
    app.use(async ({ client, next }) => {
      metrics.watchClient(client);
      await next();
    });
  }
  // Features register on `on`: their listeners go into one table, dispatched by one
  // middleware (dispatch.ts) instead of Bolt running every listener's chain per request.
  const listeners = new ListenerTable();
  const on = listeners.registrarFor(app);
  const router = new WorkRouter(workSubcommands(options.subcommands));
  router.register(on, deps);
  registerProjectPick(on, deps, (ctx, text) => router.dispatch(ctx, text));
  registerUnfurls(on, deps);
  registerConnection(on, deps);
  registerTasks(on, deps);
  registerProjects(on, deps);
  registerThreadSync(on, deps);
  registerReminders(on, deps);
  registerHome(on, deps, router.visible());
  registerIdentity(on, deps, (ctx) => publishHome(ctx, router.visible()));
  registerWorkflowSteps(on, deps);
  app.use(listeners.dispatch);
  return app;
}

/** The ack histogram's observer: labels from the request body, read after the answer. */
function ackObserver(metrics: Metrics) {
  // The router adds `help` to the features' subcommands.
  const known = new Set(['help', ...workSubcommands().map((s) => s.name.split(' ')[0]!)]);
  return (body: Buffer, seconds: number) =>
    metrics.ack.observe({ command: requestLabel(body, known) }, seconds);
}

function serveRoute(deps: WorklinkDeps, req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const handler = deps.routes.find(req.method ?? 'GET', path);
  if (!handler) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: `No route for ${req.method} ${path}` }));
    return;
  }
  Promise.resolve()
    .then(() => handler(req, res))
    .catch((e: unknown) => {
      deps.logger.error(`Route ${req.method} ${path} failed: ${errMessage(e)}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'internal error' }));
      } else {
        res.end();
      }
    });
}

export type { Logger };
