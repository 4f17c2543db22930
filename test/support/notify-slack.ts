/**
 * Notification helpers on top of the core's fake Slack, through its public scripting API
 * only (script, calls):
 *
 *   scriptDmHistory(fake);                 // drop a leftover conversations.history script
 *   scriptRateLimit(fake, { perSecond: 50 }); // chat.postMessage answers 429 past a limit
 *   dmCalls(fake);  dmCountsByOutboxId(fake);
 *
 * A DM counts once its chat.postMessage reached the fake and was not refused: answered ok,
 * or still waiting for a scripted delay (Slack stores a message as it accepts the call, and
 * so does the fake: a send whose answer is lost to a crash is still in the channel's history).
 */
import type { FakeSlack, RecordedCall, ScriptReply } from './fake-slack.js';

export const DM_EVENT_TYPE = 'worklink_task_assigned';

/** The IM id the fake's conversations.open gives for a user: U_BOB → D_BOB. */
export function imOf(channel: string): string {
  return channel.startsWith('D') ? channel : `D${channel.slice(1)}`;
}

interface DmMetadata {
  event_type?: string;
  event_payload?: { outbox_id?: number; marker?: string; task_id?: string };
}

function metadataOf(call: RecordedCall): DmMetadata | undefined {
  const m = call.body.metadata;
  if (typeof m === 'string') {
    try {
      return JSON.parse(m) as DmMetadata;
    } catch {
      return undefined;
    }
  }
  return m as DmMetadata | undefined;
}

/** True when the fake accepted (or is still answering) this call. */
function accepted(call: RecordedCall): boolean {
  if (call.doneSeq === undefined) return true;
  return (call.reply as { ok?: boolean } | null | undefined)?.ok === true;
}

/** Worklink's assignment DMs that Slack accepted, in arrival order. */
export function dmCalls(fake: FakeSlack): RecordedCall[] {
  return fake
    .callsOf('chat.postMessage')
    .filter((c) => metadataOf(c)?.event_type === DM_EVENT_TYPE && accepted(c));
}

/** Every assignment DM attempt (accepted or refused). */
export function dmAttempts(fake: FakeSlack): RecordedCall[] {
  return fake
    .callsOf('chat.postMessage')
    .filter((c) => metadataOf(c)?.event_type === DM_EVENT_TYPE);
}

export function outboxIdOf(call: RecordedCall): number | undefined {
  return metadataOf(call)?.event_payload?.outbox_id;
}

/** outbox id → how many accepted DMs carried it (1 everywhere = exactly once). */
export function dmCountsByOutboxId(fake: FakeSlack): Map<number, number> {
  const counts = new Map<number, number>();
  for (const c of dmCalls(fake)) {
    const id = outboxIdOf(c);
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Accepted DMs to one Slack user. */
export function dmsTo(fake: FakeSlack, slackUserId: string): RecordedCall[] {
  return dmCalls(fake).filter((c) => imOf(String(c.body.channel)) === imOf(slackUserId));
}

/**
 * conversations.history is Slack's own now (the sandbox's, from what was posted); this only
 * drops a history script an earlier test may have left.
 */
export function scriptDmHistory(fake: FakeSlack): void {
  fake.script('conversations.history', undefined);
}

export interface RateLimit {
  /** DMs accepted so far / refused with 429 (both limits). */
  accepted: number;
  limited: number;
  /** Refusals by the per-channel limit, and by the team limit. */
  limitedChannel: number;
  limitedTeam: number;
}

export interface RateLimitOptions {
  /** chat.postMessage calls accepted per sliding second per bot token (= per Slack team). */
  perSecond: number;
  /** Retry-After of a 429, in whole seconds like Slack (default 1). */
  retryAfterS?: number;
  /** Also refuse a second message into one channel within 1 s (Slack's per-channel limit). */
  perChannel?: boolean;
  /** Slack's own latency: each answer waits this long after the decision (default 0). */
  latencyMs?: number;
}

/**
 * chat.postMessage as Slack limits it: at most `perSecond` calls in any sliding second per
 * bot token (the team), and with `perChannel` at most one message per second into one
 * channel; past either it answers 429 with Retry-After. Both refusals look the same to the
 * caller, as on Slack. A refused call uses up neither limit.
 */
export function scriptRateLimit(
  fake: FakeSlack,
  { perSecond, retryAfterS = 1, perChannel = false, latencyMs = 0 }: RateLimitOptions,
): RateLimit {
  const stats: RateLimit = { accepted: 0, limited: 0, limitedChannel: 0, limitedTeam: 0 };
  const windows = new Map<string, number[]>();
  const lastInChannel = new Map<string, number>();
  const later = (reply: ScriptReply | undefined): ScriptReply | undefined =>
    // biome-ignore lint/suspicious/noThenProperty: the fake's ScriptReply names it `then`.
    latencyMs > 0 ? { delayMs: latencyMs, then: reply } : reply;
  fake.script('chat.postMessage', (body) => {
    // The script runs right after its call was recorded: the last call is this one.
    const token = fake.calls.at(-1)?.token ?? '';
    const channel = `${token} ${imOf(String(body.channel ?? ''))}`;
    const now = Date.now();
    const recent = (windows.get(token) ?? []).filter((t) => now - t < 1000);
    windows.set(token, recent);
    const channelBusy = perChannel && now - (lastInChannel.get(channel) ?? -Infinity) < 1000;
    if (channelBusy || recent.length >= perSecond) {
      stats.limited++;
      if (channelBusy) stats.limitedChannel++;
      else stats.limitedTeam++;
      return later({
        status: 429,
        headers: { 'retry-after': String(retryAfterS) },
        body: { ok: false, error: 'ratelimited' },
      });
    }
    recent.push(now);
    lastInChannel.set(channel, now);
    stats.accepted++;
    return later(undefined);
  });
  return stats;
}
