/**
 * Slack's Web API for tests: the sandbox's own Web API (src/sandbox/web-api.ts, one Slack for
 * the sandbox and the tests) on a free port, plus what tests need on top of it: every call
 * RECORDED with a timeline, per-method SCRIPTS for failures (the sandbox's interception
 * layer), and response_url posts captured.
 *
 *   const fake = await startFakeSlack({ users: [{ id: 'U_ALICE', tz: 'America/New_York' }] });
 *   fake.script('chat.postMessage', (body, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : undefined));
 *   fake.script('users.info', () => ({ delayMs: 2000 }));          // slow, then the real answer
 *   fake.script('users.info', () => ({ ok: false, error: 'user_not_found' }));
 *   const call = await fake.waitForCall('views.open');
 *
 * A script returning undefined falls through to the sandbox's answer, which validates like
 * Slack (Block Kit, channels, messages, views, hashes). The tests' workspace is open: a
 * channel, DM or message the app names exists (the harness makes up payloads about them),
 * see admit() below; people are only those in `users`.
 */

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateBlocks } from '../../src/sandbox/block-validation.js';
import type { SandboxUser } from '../../src/sandbox/records.js';
import { SandboxState } from '../../src/sandbox/state.js';
import { UnfurlLog } from '../../src/sandbox/unfurls.js';
import { WebApi } from '../../src/sandbox/web-api.js';
import type { ApiResult, Script } from '../../src/sandbox/web-api-scripts.js';
import { FunctionExecutions } from '../../src/sandbox/workflow-functions.js';
import { DEFAULT_BOT } from '../../src/sandbox/workspace.js';

export type { Script, ScriptReply } from '../../src/sandbox/web-api-scripts.js';

export interface FakeSlackUser {
  id: string;
  name?: string;
  realName?: string;
  email?: string;
  tz?: string;
  isAdmin?: boolean;
  isOwner?: boolean;
  isBot?: boolean;
  /** Another organisation's team: a Slack Connect person (users.info's team_id). */
  teamId?: string;
  isRestricted?: boolean;
  isUltraRestricted?: boolean;
}

export interface RecordedCall {
  method: string;
  body: Record<string, unknown>;
  token?: string;
  /** Date.now() when the request arrived. */
  at: number;
  /** Position in fake.timeline when it arrived / when its answer was sent. */
  seq: number;
  doneSeq?: number;
  /** What the fake answered (JSON body), once answered. */
  reply?: unknown;
}

export interface RecordedResponse {
  id: string;
  body: Record<string, unknown>;
  at: number;
  seq: number;
  /** Why Slack refused it (invalid blocks), when it did. */
  problems?: string[];
}

export interface FakeSlackOptions {
  users?: FakeSlackUser[];
  teamId?: string;
  botUserId?: string;
  botId?: string;
  /** When set, only these tokens are accepted (else any non-empty token). */
  tokens?: string[];
}

export interface FakeSlack {
  /** Base for WebClient's slackApiUrl: http://127.0.0.1:port/api/ */
  apiUrl: string;
  url: string;
  calls: RecordedCall[];
  responses: RecordedResponse[];
  /** Ordered log of what happened, for "this before that" assertions. */
  timeline: string[];
  /** Appends a label to the timeline; returns its position. */
  mark(label: string): number;
  /** The workspace's people; changes reach the sandbox's state at once. */
  users: Map<string, FakeSlackUser>;
  /** Workflow step executions ended with functions.completeSuccess / completeError. */
  executions: FunctionExecutions;
  files: Map<string, Record<string, unknown>>;
  script(method: string, fn: Script | undefined): void;
  /** A fresh response_url served by this fake. */
  responseUrl(id?: string): string;
  /** Makes `id` a trigger_id Slack issued for an interaction of `userId` (slack-requests.ts). */
  admitTrigger(id: string, userId: string): void;
  /** Makes a modal the harness describes in a payload open for `userId`. */
  admitView(userId: string, view: { id: string; hash?: string }): void;
  /** A channel with exactly these members (and the bot), e.g. a private one. */
  addChannel(id: string, members: readonly string[]): void;
  callsOf(method: string): RecordedCall[];
  waitForCall(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  waitForResponse(
    predicate?: (r: RecordedResponse) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedResponse>;
  /** Forget recorded calls, responses and posted messages (scripts stay). */
  reset(): void;
  close(): Promise<void>;
}

/** Tests run on busy machines: a trigger stays usable longer than Slack's 3 s. */
const TEST_TRIGGER_TTL_MS = 60_000;

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const teamId = options.teamId ?? 'T_TEST';
  const state = new SandboxState({
    team: { id: teamId, name: 'Test Team', domain: 'fake' },
    users: [],
    channels: [],
    bot: {
      ...DEFAULT_BOT,
      botUserId: options.botUserId ?? 'U_WORKLINK',
      botId: options.botId ?? 'B_WORKLINK',
    },
    logger: () => {},
    // As in Slack, auth.test's url and permalinks name the workspace's address, not the API's.
    baseUrl: 'https://fake.slack.test',
  });
  state.triggers.ttlMs = TEST_TRIGGER_TTL_MS;
  const api = new WebApi(state, (token) => !options.tokens || options.tokens.includes(token));
  // Any execution id the tests make up is one Slack started; each ends once.
  const executions = new FunctionExecutions(true);
  api.extend(executions.methods(), (token) => executions.acceptsToken(token));
  // Link previews: chat.unfurl and entity.presentDetails are answered and recorded.
  api.extend(new UnfurlLog().methods());
  const users = new WorkspaceUsers(state);
  for (const u of options.users ?? []) users.set(u.id, u);
  // Given no people, anyone the app DMs exists (the outbox worker's tests name them freely).
  const openPeople = users.size === 0;

  const calls: RecordedCall[] = [];
  const responses: RecordedResponse[] = [];
  const timeline: string[] = [];
  const waiters = new Set<() => void>();
  const inFlight = new Map<object, RecordedCall>();
  let nextId = 1;
  const notify = () => {
    for (const w of waiters) w();
  };
  const mark = (label: string) => timeline.push(label) - 1;

  api.scripts.observe({
    received(event) {
      admit(state, openPeople ? users : undefined, event.method, event.args);
      const call: RecordedCall = {
        method: event.method,
        body: event.args,
        token: event.token,
        at: Date.now(),
        seq: mark(`call ${event.method}`),
      };
      inFlight.set(event, call);
      calls.push(call);
      notify();
    },
    answered(event, result: ApiResult) {
      const call = inFlight.get(event);
      inFlight.delete(event);
      if (!call) return;
      call.reply = result.empty ? undefined : result.body;
      call.doneSeq = mark(`done ${event.method}`);
      notify();
    },
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = parseBody(await readBody(req), String(req.headers['content-type'] ?? ''));
    if (req.method === 'POST' && url.pathname.startsWith('/response/')) {
      // Slack checks a response_url post's blocks as it does chat.postMessage's.
      const problems = body.blocks === undefined ? [] : validateBlocks(body.blocks, 'message');
      responses.push({
        id: url.pathname.slice(10),
        body,
        at: Date.now(),
        seq: mark('response'),
        ...(problems.length ? { problems } : {}),
      });
      notify();
      if (problems.length) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ok: false,
            error: 'invalid_blocks',
            response_metadata: { messages: problems },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    const m = /^\/api\/([\w.]+)$/.exec(url.pathname);
    if (req.method !== 'POST' || !m) {
      res.writeHead(404);
      res.end();
      return;
    }
    const auth = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
    const result = await api.handle(m[1], body, auth?.[1]);
    res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
    res.end(result.empty ? '' : JSON.stringify(result.body));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      res.writeHead(500);
      res.end(String(e));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  function waitUntil<T>(find: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found !== undefined) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `Timed out waiting for ${what}; calls so far: ${calls.map((c) => c.method).join(', ') || 'none'}`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }

  return {
    apiUrl: `${url}/api/`,
    url,
    calls,
    responses,
    timeline,
    mark,
    users,
    executions,
    files: state.files,
    script: (method, fn) => api.scripts.set(method, fn),
    responseUrl: (id = `r${nextId++}`) => `${url}/response/${id}`,
    admitTrigger(id, userId) {
      state.triggers.admit(id, userId);
    },
    admitView(userId, view) {
      admitView(state, userId, view.id, view.hash);
    },
    addChannel(id, members) {
      state.channels.set(id, {
        id,
        name: id.toLowerCase(),
        kind: 'channel',
        members: new Set([...members, state.bot.botUserId]),
        created: Math.floor(Date.now() / 1000),
      });
    },
    callsOf: (method) => calls.filter((c) => c.method === method),
    waitForCall: (method, predicate = () => true, timeoutMs = 10_000) =>
      waitUntil(
        () => calls.find((c) => c.method === method && predicate(c)),
        timeoutMs,
        `a ${method} call`,
      ),
    waitForResponse: (predicate = () => true, timeoutMs = 10_000) =>
      waitUntil(() => responses.find(predicate), timeoutMs, 'a response_url post'),
    reset() {
      calls.length = 0;
      responses.length = 0;
      // What was posted goes too, so conversations.history starts empty as the calls do.
      state.messages.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The fake's people as a Map tests change; every change is made in the sandbox's state too. */
class WorkspaceUsers extends Map<string, FakeSlackUser> {
  constructor(private readonly state: SandboxState) {
    super();
  }

  override set(id: string, u: FakeSlackUser): this {
    super.set(id, u);
    const user: SandboxUser = {
      id,
      name: u.name ?? id.toLowerCase(),
      realName: u.realName ?? u.name ?? id,
      email: u.email ?? '',
      tz: u.tz ?? 'UTC',
      isAdmin: u.isAdmin,
      isOwner: u.isOwner,
      isRestricted: u.isRestricted,
      isUltraRestricted: u.isUltraRestricted,
      ...(u.teamId ? { teamId: u.teamId } : {}),
      isBot: Boolean(u.isBot),
      color: '9f69e7',
    };
    this.state.users.set(id, user);
    if (!user.isBot && !this.state.imFor(id)) addIm(this.state, id);
    return this;
  }

  override delete(id: string): boolean {
    this.state.users.delete(id);
    return super.delete(id);
  }
}

/** The bot's DM with a person: D + the id without its U (U_BOB → D_BOB), as the sandbox names it. */
function addIm(state: SandboxState, userId: string, id = `D${userId.slice(1)}`) {
  const channel = {
    id,
    name: id,
    kind: 'im' as const,
    members: new Set([userId, state.bot.botUserId]),
    imUser: userId,
    created: Math.floor(Date.now() / 1000),
  };
  state.channels.set(id, channel);
  return channel;
}

function admitView(state: SandboxState, userId: string, id: string, hash?: string) {
  if (state.views.has(id)) return;
  const view = state.newView(userId, { type: 'modal', blocks: [] });
  state.views.delete(view.id);
  state.views.set(id, {
    userId,
    view: { ...view, id, root_view_id: id, hash: hash ?? view.hash },
  });
  // The harness's modal is the one the user has open.
  state.modalStacks.set(userId, [id]);
}

/**
 * The tests' workspace is open where the harness makes up what real Slack would have: a
 * channel the app posts in (C…/G…), the message a shortcut ran on (its permalink), and the
 * person a DM goes to when the fake was given no people (the outbox worker's tests). Anything
 * else is Slack's answer: unknown triggers, views, messages and people are refused.
 */
function admit(
  state: SandboxState,
  users: WorkspaceUsers | undefined,
  method: string,
  args: Record<string, unknown>,
): void {
  const channel = typeof args.channel === 'string' ? args.channel : undefined;
  const dmTarget =
    method === 'conversations.open' && typeof args.users === 'string'
      ? args.users.split(',')[0]?.trim()
      : method === 'chat.postMessage' && channel && /^[UW]/.test(channel)
        ? channel
        : undefined;
  if (users && dmTarget && !state.users.has(dmTarget)) users.set(dmTarget, { id: dmTarget });
  if (channel && /^[CG]/.test(channel) && !state.channels.has(channel)) {
    state.channels.set(channel, {
      id: channel,
      name: channel.toLowerCase(),
      kind: 'channel',
      members: new Set([...state.users.keys(), state.bot.botUserId]),
      created: Math.floor(Date.now() / 1000),
    });
  }
  const ts = typeof args.message_ts === 'string' ? args.message_ts : undefined;
  if (method === 'chat.getPermalink' && channel && ts && !state.findMessage(channel, ts)) {
    state.addMessage({ channel, ts, user: 'U_UNKNOWN', text: '' });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** JSON or form-encoded; form values that hold JSON (view, blocks) are decoded too. */
function parseBody(raw: string, contentType: string): Record<string, unknown> {
  if (!raw) return {};
  if (contentType.includes('application/json')) {
    try {
      return JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return { _raw: raw };
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    out[k] = /^[[{]/.test(v) ? tryJson(v) : v;
  }
  return out;
}

function tryJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
