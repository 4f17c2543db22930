// The sandbox's HTTP server: the Slack Web API under /api/<method>, response URLs under
// /response/…, the page (static files) and the page's own JSON endpoints under /sandbox/….

import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { projectFile } from '../project-root.js';
import { isAllowedHost } from './host-check.js';
import { Interactions } from './interactions.js';
import { isObj } from './json-guards.js';
import { LinkPreviews } from './link-previews.js';
import { type AppSurface, DEFAULT_APP_SURFACE } from './manifest.js';
import { pageRoutes } from './page-api.js';
import type { LogEntry } from './records.js';
import { SandboxState } from './state.js';
import { type Args, WebApi } from './web-api.js';
import { FunctionExecutions, type StepDefinition } from './workflow-functions.js';
import { workflowRoutes } from './workflow-runs.js';
import {
  DEFAULT_CHANNELS,
  DEFAULT_TEAM,
  DEFAULT_USERS,
  type SandboxChannelSpec,
  type SandboxUserSpec,
} from './workspace.js';

export interface SandboxServerOptions {
  /** 0 picks a free port (tests). */
  port?: number;
  host?: string;
  /** Where Slack would send requests: the Bolt app's /slack/events URL. May be set later. */
  appEventsUrl?: string;
  signingSecret: string;
  botToken: string;
  users?: readonly SandboxUserSpec[];
  channels?: readonly SandboxChannelSpec[];
  teamId?: string;
  /** Commands, shortcuts and tabs the app declares (from its manifest). */
  app?: AppSurface;
  /** The Workflow Builder steps the app declares (the manifest's `functions`). */
  steps?: readonly StepDefinition[];
  /** How long the app gets to answer a request (Slack: 3000 ms). */
  timeoutMs?: number;
  /** How long a trigger_id stays usable (Slack: 3000 ms). */
  triggerTtlMs?: number;
  logger?: (entry: LogEntry) => void;
}

export interface SandboxServer {
  /** The page, e.g. http://127.0.0.1:3000 */
  url: string;
  /** What the app's WebClient uses as slackApiUrl (ends with a slash). */
  apiUrl: string;
  state: SandboxState;
  webApi: WebApi;
  interactions: Interactions;
  /** Workflow step executions (the page's Workflows panel). */
  executions: FunctionExecutions;
  /** Link previews: the app's unfurls and side panels (add the app's page hosts). */
  previews: LinkPreviews;
  setAppEventsUrl(url: string): void;
  setAppSurface(surface: AppSurface): void;
  stop(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The page's static files: always the sources' (builds do not copy them). */
function pageDir(): string {
  return projectFile('src', 'sandbox', 'page');
}

async function loadPage(): Promise<Map<string, { type: string; body: Buffer }>> {
  const dir = pageDir();
  const files = new Map<string, { type: string; body: Buffer }>();
  for (const name of await readdir(dir)) {
    const type = CONTENT_TYPES[extname(name)];
    if (!type) continue;
    files.set(name, { type, body: await readFile(join(dir, name)) });
  }
  return files;
}

/** A route's `:name` parameter (Fastify gives each as a string; anything else reads as ''). */
function routeParam(params: unknown, key: string): string {
  const v = isObj(params) ? params[key] : undefined;
  return typeof v === 'string' ? v : '';
}

function parseApiArgs(
  contentType: string,
  raw: string,
): Args | 'invalid_json' | 'invalid_form_data' {
  if (raw.length === 0) return {};
  if (contentType.includes('application/json')) {
    try {
      const v: unknown = JSON.parse(raw);
      return isObj(v) ? v : 'invalid_json';
    } catch {
      return 'invalid_json';
    }
  }
  if (contentType.includes('application/x-www-form-urlencoded') || contentType === '') {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  return 'invalid_form_data';
}

function registerSlackRoutes(
  app: FastifyInstance,
  webApi: WebApi,
  interactions: Interactions,
): void {
  // Own scope: every body arrives as a string so malformed input gets Slack's answers.
  // biome-ignore lint/nursery/noMisusedPromises: Fastify awaits async plugins (ready/listen).
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    const apiHandler = async (
      req: { params: unknown; query: unknown; body: unknown; headers: Record<string, unknown> },
      reply: FastifyReply,
    ) => {
      const method = routeParam(req.params, 'method');
      const contentType = String(req.headers['content-type'] ?? '');
      const parsed = parseApiArgs(contentType, typeof req.body === 'string' ? req.body : '');
      if (typeof parsed === 'string') return reply.send({ ok: false, error: parsed });
      const args = { ...(isObj(req.query) ? req.query : {}), ...parsed };
      const auth = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      const result = await webApi.handle(method, args, auth?.[1]);
      reply.code(result.status);
      if (result.headers) reply.headers(result.headers);
      return reply.send(result.empty ? '' : result.body);
    };
    scope.get('/api/:method', apiHandler);
    scope.post('/api/:method', apiHandler);

    scope.post('/response/:team/:id', async (req, reply) => {
      const id = routeParam(req.params, 'id');
      const raw = typeof req.body === 'string' ? req.body : '';
      const result = interactions.respond(id, raw);
      return reply.code(result.status).type('text/plain').send(result.text);
    });
  });
}

export async function startSandboxServer(opts: SandboxServerOptions): Promise<SandboxServer> {
  const state = new SandboxState({
    team: opts.teamId ? { ...DEFAULT_TEAM, id: opts.teamId } : DEFAULT_TEAM,
    users: opts.users ?? DEFAULT_USERS,
    channels: opts.channels ?? DEFAULT_CHANNELS,
    appName: opts.app?.name ?? DEFAULT_APP_SURFACE.name,
    logger: opts.logger,
  });
  if (opts.triggerTtlMs !== undefined) state.triggers.ttlMs = opts.triggerTtlMs;
  let appUrl = opts.appEventsUrl;
  let surface = opts.app ?? DEFAULT_APP_SURFACE;
  const webApi = new WebApi(state, opts.botToken);
  const executions = new FunctionExecutions();
  webApi.extend(executions.methods(), (token) => executions.acceptsToken(token));
  const previews = new LinkPreviews(state);
  webApi.extend(previews.log.methods());
  const verificationToken = randomBytes(12).toString('hex');
  const interactions = new Interactions(state, {
    signingSecret: opts.signingSecret,
    verificationToken,
    appUrl: () => appUrl,
    surface: () => surface,
    timeoutMs: opts.timeoutMs,
    previews,
  });

  const page = await loadPage();
  const streams = new Set<ServerResponse>();
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 1024 * 1024 });

  app.addHook('onRequest', async (req, reply) => {
    if (isAllowedHost(req.headers.host, opts.host)) return;
    return reply
      .code(421)
      .type('text/plain')
      .send('This sandbox answers only at localhost or its configured host.\n');
  });

  const sendPage = (reply: FastifyReply) => {
    const index = page.get('index.html');
    if (!index) return reply.code(500).send('page missing');
    return reply.type(index.type).header('cache-control', 'no-store').send(index.body);
  };
  app.get('/', async (_req, reply) => sendPage(reply));
  app.get('/archives/*', async (_req, reply) => sendPage(reply));
  app.get('/static/:name', async (req, reply) => {
    const name = routeParam(req.params, 'name');
    const file = page.get(name);
    if (!file || name === 'index.html') {
      return reply.code(404).send('not found');
    }
    return reply.type(file.type).header('cache-control', 'no-store').send(file.body);
  });

  registerSlackRoutes(app, webApi, interactions);
  pageRoutes(app, { state, interactions, surface: () => surface, streams });
  workflowRoutes(app, {
    state,
    steps: () => opts.steps ?? [],
    executions,
    signingSecret: opts.signingSecret,
    verificationToken,
    appUrl: () => appUrl,
  });

  await app.listen({ port: opts.port ?? 3000, host: opts.host ?? '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const host =
    !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  state.baseUrl = url;

  return {
    url,
    apiUrl: `${url}/api/`,
    state,
    webApi,
    interactions,
    executions,
    previews,
    setAppEventsUrl(next) {
      appUrl = next;
    },
    setAppSurface(next) {
      surface = next;
      state.appName = next.name;
      state.changed();
    },
    async stop() {
      for (const res of streams) res.end();
      streams.clear();
      await app.close();
    },
  };
}
