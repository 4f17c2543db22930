/**
 * A local Slack Web API for tests: POST /api/<method> (form-encoded or JSON, Bearer token),
 * every call RECORDED, sensible default answers, and per-method SCRIPTS for failures:
 *
 *   const fake = await startFakeSlack({ users: [{ id: 'U_ALICE', tz: 'America/New_York' }] });
 *   fake.script('chat.postMessage', (body, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : undefined));
 *   fake.script('users.info', () => ({ delayMs: 2000 }));          // slow, then the default
 *   fake.script('users.info', () => ({ ok: false, error: 'user_not_found' }));
 *   const call = await fake.waitForCall('views.open');
 *
 * Also serves response_url posts at /response/<id> (fake.responseUrl()) and records them.
 * A script returning undefined falls through to the default answer. Blocks and views are
 * checked with the sandbox's Block Kit rules (src/sandbox/block-validation.ts) and refused as
 * Slack refuses them (invalid_blocks, invalid_arguments).
 */

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateBlocks, validateView } from '../../src/sandbox/block-validation.js';

export interface FakeSlackUser {
  id: string;
  name?: string;
  realName?: string;
  email?: string;
  tz?: string;
  isAdmin?: boolean;
  isOwner?: boolean;
  isBot?: boolean;
  teamId?: string;
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
}

/** What a script may answer. */
export type ScriptReply =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { delayMs: number; then?: ScriptReply }
  | { ok: false; error: string; [k: string]: unknown }
  | { ok: true; [k: string]: unknown };

export type Script = (
  body: Record<string, unknown>,
  n: number,
) => ScriptReply | undefined | Promise<ScriptReply | undefined>;

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
  users: Map<string, FakeSlackUser>;
  files: Map<string, Record<string, unknown>>;
  script(method: string, fn: Script | undefined): void;
  /** A fresh response_url served by this fake. */
  responseUrl(id?: string): string;
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
  /** Forget recorded calls and responses (scripts stay). */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const teamId = options.teamId ?? 'T_TEST';
  const botUserId = options.botUserId ?? 'U_WORKLINK';
  const botId = options.botId ?? 'B_WORKLINK';
  const users = new Map((options.users ?? []).map((u) => [u.id, u]));
  const files = new Map<string, Record<string, unknown>>();
  const scripts = new Map<string, Script>();
  const counts = new Map<string, number>();
  const calls: RecordedCall[] = [];
  const responses: RecordedResponse[] = [];
  const timeline: string[] = [];
  const waiters = new Set<() => void>();
  let nextId = 1;
  let tsCounter = 0;

  const notify = () => {
    for (const w of waiters) w();
  };
  const mark = (label: string) => timeline.push(label) - 1;

  const userJson = (u: FakeSlackUser) => ({
    id: u.id,
    team_id: u.teamId ?? teamId,
    name: u.name ?? u.id.toLowerCase(),
    real_name: u.realName ?? u.name ?? u.id,
    tz: u.tz ?? 'UTC',
    tz_label: u.tz ?? 'UTC',
    is_admin: Boolean(u.isAdmin),
    is_owner: Boolean(u.isOwner),
    is_primary_owner: false,
    is_bot: Boolean(u.isBot),
    deleted: false,
    profile: {
      email: u.email,
      real_name: u.realName ?? u.name ?? u.id,
      display_name: u.name ?? u.id,
    },
  });

  const ts = () => `${Math.floor(Date.now() / 1000)}.${String(++tsCounter).padStart(6, '0')}`;

  const viewAnswer = (body: Record<string, unknown>) => {
    const view = (body.view ?? {}) as Record<string, unknown>;
    const id = (body.view_id as string | undefined) ?? `V${String(nextId++).padStart(8, '0')}`;
    return {
      ok: true,
      view: { ...view, id, team_id: teamId, hash: `h${nextId++}`, state: { values: {} } },
    };
  };

  const defaults: Record<string, (b: Record<string, unknown>) => unknown> = {
    'auth.test': () => ({
      ok: true,
      url: 'https://fake.slack.test/',
      team: 'Test Team',
      user: 'worklink',
      team_id: teamId,
      user_id: botUserId,
      bot_id: botId,
    }),
    'chat.postMessage': (b) => ({
      ok: true,
      channel: b.channel,
      ts: ts(),
      message: { text: b.text, blocks: b.blocks, bot_id: botId, user: botUserId },
    }),
    'chat.postEphemeral': () => ({ ok: true, message_ts: ts() }),
    'chat.update': (b) => ({ ok: true, channel: b.channel, ts: b.ts, text: b.text }),
    'chat.getPermalink': (b) => ({
      ok: true,
      channel: b.channel,
      permalink: `https://fake.slack.test/archives/${b.channel}/p${String(b.message_ts).replace('.', '')}`,
    }),
    'views.open': viewAnswer,
    'views.update': viewAnswer,
    'views.push': viewAnswer,
    'views.publish': viewAnswer,
    'users.info': (b) => {
      const u = users.get(String(b.user));
      return u ? { ok: true, user: userJson(u) } : { ok: false, error: 'user_not_found' };
    },
    'users.lookupByEmail': (b) => {
      const email = String(b.email).toLowerCase();
      const u = [...users.values()].find((x) => x.email?.toLowerCase() === email);
      return u ? { ok: true, user: userJson(u) } : { ok: false, error: 'users_not_found' };
    },
    'conversations.open': (b) => {
      const first = String(b.users ?? b.user ?? '').split(',')[0];
      return { ok: true, channel: { id: `D${first.replace(/^U_?/, '')}` } };
    },
    'files.info': (b) => {
      const f = files.get(String(b.file));
      return f ? { ok: true, file: f } : { ok: false, error: 'file_not_found' };
    },
  };

  async function answer(
    res: ServerResponse,
    method: string,
    body: Record<string, unknown>,
    reply: ScriptReply | undefined,
  ): Promise<unknown> {
    if (reply && typeof (reply as { delayMs?: unknown }).delayMs === 'number') {
      const delayed = reply as { delayMs: number; then?: ScriptReply };
      await new Promise((r) => setTimeout(r, delayed.delayMs));
      return answer(res, method, body, delayed.then);
    }
    if (reply && typeof (reply as { status?: unknown }).status === 'number') {
      const raw = reply as { status: number; headers?: Record<string, string>; body?: unknown };
      res.writeHead(raw.status, { 'content-type': 'application/json', ...raw.headers });
      res.end(raw.body === undefined ? '' : JSON.stringify(raw.body));
      return raw.body;
    }
    const json =
      reply ??
      blockKitProblem(method, body) ??
      defaults[method]?.(body) ??
      ({ ok: false, error: 'unknown_method' } as const);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
    return json;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const raw = await readBody(req);
    const body = parseBody(raw, String(req.headers['content-type'] ?? ''));
    if (req.method === 'POST' && url.pathname.startsWith('/response/')) {
      responses.push({ id: url.pathname.slice(10), body, at: Date.now(), seq: mark('response') });
      notify();
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
    const method = m[1];
    const auth = String(req.headers.authorization ?? '');
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : (body.token as string | undefined);
    const call: RecordedCall = { method, body, token, at: Date.now(), seq: mark(`call ${method}`) };
    calls.push(call);
    notify();
    const n = (counts.get(method) ?? 0) + 1;
    counts.set(method, n);
    let reply: ScriptReply | undefined;
    // OAuth exchanges authenticate with the client id and secret, not a token.
    const tokenless = method.startsWith('oauth.');
    if (!tokenless && (!token || (options.tokens && !options.tokens.includes(token)))) {
      reply = { ok: false, error: token ? 'invalid_auth' : 'not_authed' };
    } else {
      reply = await scripts.get(method)?.(body, n);
    }
    call.reply = await answer(res, method, body, reply);
    call.doneSeq = mark(`done ${method}`);
    notify();
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
    files,
    script(method, fn) {
      if (fn) scripts.set(method, fn);
      else scripts.delete(method);
      counts.delete(method);
    },
    responseUrl: (id = `r${nextId++}`) => `${url}/response/${id}`,
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
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Slack's answer to invalid blocks or views, as the sandbox's Web API gives it; else undefined. */
function blockKitProblem(method: string, body: Record<string, unknown>) {
  const parsed = (v: unknown) => (typeof v === 'string' ? tryJson(v) : v);
  let problems: string[] = [];
  let error = 'invalid_blocks';
  if (/^chat\.(postMessage|postEphemeral|update)$/.test(method) && body.blocks !== undefined) {
    problems = validateBlocks(parsed(body.blocks), 'message');
  } else if (/^views\.(open|push|update|publish)$/.test(method) && body.view !== undefined) {
    problems = validateView(parsed(body.view), method === 'views.publish' ? 'home' : 'modal');
    error = 'invalid_arguments';
  }
  return problems.length > 0
    ? { ok: false, error, response_metadata: { messages: problems } }
    : undefined;
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
