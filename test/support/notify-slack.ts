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
import type { FakeSlack, RecordedCall } from './fake-slack.js';

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
  /** DMs accepted so far / refused with 429. */
  accepted: number;
  limited: number;
}

/**
 * chat.postMessage accepts at most `perSecond` calls in any sliding second, per bot token
 * (= per Slack team); past that it answers 429 with Retry-After (whole seconds, like Slack).
 */
export function scriptRateLimit(
  fake: FakeSlack,
  { perSecond, retryAfterS = 1 }: { perSecond: number; retryAfterS?: number },
): RateLimit {
  const stats: RateLimit = { accepted: 0, limited: 0 };
  const windows = new Map<string, number[]>();
  fake.script('chat.postMessage', () => {
    // The script runs right after its call was recorded: the last call is this one.
    const token = fake.calls.at(-1)?.token ?? '';
    const now = Date.now();
    const recent = (windows.get(token) ?? []).filter((t) => now - t < 1000);
    if (recent.length >= perSecond) {
      windows.set(token, recent);
      stats.limited++;
      return {
        status: 429,
        headers: { 'retry-after': String(retryAfterS) },
        body: { ok: false, error: 'ratelimited' },
      };
    }
    recent.push(now);
    windows.set(token, recent);
    stats.accepted++;
    return undefined;
  });
  return stats;
}
