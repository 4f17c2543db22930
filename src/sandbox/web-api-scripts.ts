// The optional interception layer of the sandbox's Web API: per-method scripts (HTTP faults,
// slow answers, custom error bodies, chosen by call count) and observers that see every call
// as it arrives and as it is answered. The tests' fake Slack (test/support/fake-slack.ts) is
// this plus recording; the sandbox itself uses it for rate-limit and outage drills.
//
//   api.script('chat.postMessage', (args, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : undefined));
//   api.script('users.info', () => ({ delayMs: 2000 }));   // slow, then the real answer
//   api.script('users.info', () => ({ ok: false, error: 'user_not_found' }));
//
// A script returning undefined lets the call through to the real answer.

export type Args = Record<string, unknown>;

export interface ApiResult {
  status: number;
  headers?: Record<string, string>;
  body: Record<string, unknown>;
  /** An HTTP fault scripted without a body: sent as an empty response. */
  empty?: boolean;
}

/** An HTTP answer of its own: a status (429, 500, …), headers, and a JSON body or none. */
interface HttpReply {
  status: number;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** A pause, then another reply (or, with none, the real answer sent late). */
interface DelayReply {
  delayMs: number;
  then?: ScriptReply;
}

/** What a script may answer instead of the real answer. */
export type ScriptReply =
  | HttpReply
  | DelayReply
  | { ok: false; error: string; [k: string]: unknown }
  | { ok: true; [k: string]: unknown };

const isDelay = (r: ScriptReply): r is DelayReply =>
  'delayMs' in r && typeof r.delayMs === 'number';
const isHttp = (r: ScriptReply): r is HttpReply => 'status' in r && typeof r.status === 'number';

/** `n` counts this method's calls since the script was set (1 = the first). */
export type Script = (
  args: Args,
  n: number,
) => ScriptReply | undefined | Promise<ScriptReply | undefined>;

export interface CallEvent {
  method: string;
  args: Args;
  token?: string;
}

export interface ApiObserver {
  /** The call arrived (before any script runs). */
  received?(call: CallEvent): void;
  /** Its answer is about to be sent. */
  answered?(call: CallEvent, result: ApiResult): void;
}

export class ApiScripts {
  private readonly scripts = new Map<string, Script>();
  private readonly counts = new Map<string, number>();
  private readonly observers = new Set<ApiObserver>();

  /** Sets (or with undefined removes) the script of a method; its call count starts again. */
  set(method: string, fn: Script | undefined): void {
    if (fn) this.scripts.set(method, fn);
    else this.scripts.delete(method);
    this.counts.delete(method);
  }

  observe(observer: ApiObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  received(call: CallEvent): void {
    for (const o of this.observers) o.received?.(call);
  }

  answered(call: CallEvent, result: ApiResult): void {
    for (const o of this.observers) o.answered?.(call, result);
  }

  /** The scripted reply for this call, if any (counts the call either way). */
  async reply(method: string, args: Args): Promise<ScriptReply | undefined> {
    const n = (this.counts.get(method) ?? 0) + 1;
    this.counts.set(method, n);
    return this.scripts.get(method)?.(args, n);
  }
}

/**
 * Turns a script's reply into the answer. A delay with nothing after it computes the real
 * answer first and sends it late, as Slack does when it stored a message but answered slowly
 * (the message is in the channel even if the caller gave up waiting).
 */
export async function resolveReply(
  reply: ScriptReply | undefined,
  real: () => ApiResult,
): Promise<ApiResult> {
  if (reply === undefined) return real();
  if (isDelay(reply)) {
    const { delayMs, then } = reply;
    if (then === undefined) {
      const result = real();
      await sleep(delayMs);
      return result;
    }
    await sleep(delayMs);
    return resolveReply(then, real);
  }
  if (isHttp(reply)) {
    const { status, headers, body } = reply;
    return body === undefined
      ? { status, headers, body: {}, empty: true }
      : { status, headers, body };
  }
  return { status: 200, body: reply };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
