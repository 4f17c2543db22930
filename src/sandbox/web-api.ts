// The Slack Web API as the app calls it: a call arrives (handle), the token is checked, a
// test's script or injected fault may answer, else the method answers from SandboxState with
// Slack's response shapes and error names (message-methods.ts, view-methods.ts,
// directory-methods.ts). Anything else answers `unknown_method` and is logged, so a gap in the
// sandbox shows up instead of passing silently.

import { errMessage } from '../error-message.js';
import { directoryMethods } from './directory-methods.js';
import { messageMethods } from './message-methods.js';
import type { SandboxState } from './state.js';
import { viewMethods } from './view-methods.js';
import { ApiError, fail, type MethodHandler, str } from './web-api-args.js';
import { type ApiResult, ApiScripts, type Args, resolveReply } from './web-api-scripts.js';

export type { ApiResult, Args } from './web-api-scripts.js';

export interface Fault {
  /** HTTP status to answer with, e.g. 429 or 503. */
  status: number;
  /** Slack error name in the body (default: "ratelimited" for 429, "internal_error" otherwise). */
  error?: string;
  /** Seconds, sent as Retry-After (429). */
  retryAfter?: number;
}

export interface ApiCall {
  method: string;
  args: Args;
  at: number;
  ok: boolean;
  error?: string;
}

export class WebApi {
  readonly calls: ApiCall[] = [];
  /** Scripts and observers around every call that arrives through handle(). */
  readonly scripts = new ApiScripts();
  private readonly faults = new Map<string, Fault[]>();
  private readonly handlers: Record<string, MethodHandler>;
  private acceptsToken: (token: string) => boolean;

  /** `botToken`: the one token Slack issued, or a test of which tokens are valid. */
  constructor(
    private readonly state: SandboxState,
    botToken: string | ((token: string) => boolean),
  ) {
    this.handlers = {
      ...directoryMethods(state),
      ...messageMethods(state),
      ...viewMethods(state),
    };
    this.acceptsToken = typeof botToken === 'string' ? (t) => t === botToken : botToken;
  }

  /**
   * A call as it arrives over HTTP: observers hear of it, a script may answer instead (after
   * the token check, as Slack checks tokens first), else the real answer.
   */
  async handle(method: string, args: Args, bearer: string | undefined): Promise<ApiResult> {
    const token = bearer ?? str(args, 'token');
    const event = { method, args, token };
    this.scripts.received(event);
    const refused = this.authProblem(method, token);
    const result = refused
      ? { status: 200, body: { ok: false, error: refused } }
      : await resolveReply(await this.scripts.reply(method, args), () =>
          this.call(method, args, bearer),
        );
    this.scripts.answered(event, result);
    return result;
  }

  /** Makes the next call(s) of a method fail, e.g. `{status: 429, retryAfter: 1}`. */
  injectFault(method: string, fault: Fault, times = 1): void {
    const list = this.faults.get(method) ?? [];
    for (let i = 0; i < times; i++) list.push(fault);
    this.faults.set(method, list);
  }

  /**
   * More methods, answered like the built-in ones (a thrown `{error}` is Slack's error name),
   * and more tokens they accept (e.g. workflow-functions.ts: each execution's own token).
   */
  extend(methods: Record<string, MethodHandler>, acceptsToken?: (token: string) => boolean): void {
    for (const [name, handler] of Object.entries(methods)) {
      this.handlers[name] = (args) => {
        try {
          return handler(args);
        } catch (e) {
          if (e instanceof Error && 'error' in e && typeof e.error === 'string') fail(e.error);
          throw e;
        }
      };
    }
    if (acceptsToken) {
      const before = this.acceptsToken;
      this.acceptsToken = (t) => before(t) || acceptsToken(t);
    }
  }

  handles(method: string): boolean {
    return Object.hasOwn(this.handlers, method);
  }

  call(method: string, args: Args, bearer: string | undefined): ApiResult {
    const result = this.dispatch(method, args, bearer);
    const { token: _token, ...safeArgs } = args;
    this.calls.push({
      method,
      args: safeArgs,
      at: Date.now(),
      ok: result.body.ok === true,
      error: typeof result.body.error === 'string' ? result.body.error : undefined,
    });
    if (this.calls.length > 1000) this.calls.splice(0, this.calls.length - 1000);
    return result;
  }

  private dispatch(method: string, args: Args, bearer: string | undefined): ApiResult {
    const handler = this.handlers[method];
    if (!handler || !Object.hasOwn(this.handlers, method)) {
      this.state.note('warn', `The app called ${method}, which the sandbox does not implement.`);
      return { status: 200, body: { ok: false, error: 'unknown_method' } };
    }
    const fault = this.faults.get(method)?.shift();
    if (fault) {
      const error = fault.error ?? (fault.status === 429 ? 'ratelimited' : 'internal_error');
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      return { status: fault.status, headers, body: { ok: false, error } };
    }
    const refused = this.authProblem(method, bearer ?? str(args, 'token'));
    if (refused) return { status: 200, body: { ok: false, error: refused } };
    try {
      return { status: 200, body: { ok: true, ...handler(args) } };
    } catch (e) {
      if (e instanceof ApiError) {
        const body: Record<string, unknown> = { ok: false, error: e.error };
        if (e.messages) body.response_metadata = { messages: e.messages };
        return { status: 200, body };
      }
      this.state.note('error', `${method} failed inside the sandbox: ${errMessage(e)}`);
      return { status: 200, body: { ok: false, error: 'internal_error' } };
    }
  }

  /** Slack's error for a missing or wrong token; api.test and OAuth exchanges need none. */
  private authProblem(method: string, token: string | undefined): string | undefined {
    if (method === 'api.test' || method.startsWith('oauth.')) return undefined;
    if (!token) return 'not_authed';
    return this.acceptsToken(token) ? undefined : 'invalid_auth';
  }
}
