// Slack's trigger_id rules: one is issued with each interaction for the person who made it,
// opens one view (views.open or views.push) and only within 3 seconds; Slack's error names for
// each way a trigger fails.

import type { Trigger } from './records.js';
import { triggerId } from './slack-ids.js';

export const TRIGGER_TTL_MS = 3000;
/** Issued triggers are forgotten after this long (they expired long before). */
const FORGET_AFTER_MS = 60_000;

export class TriggerIds {
  /** How long a trigger may be used after it was issued (tests shorten or lengthen it). */
  ttlMs = TRIGGER_TTL_MS;
  private readonly byId = new Map<string, Trigger>();

  /** A new trigger for an interaction of `userId`. */
  issue(userId: string): string {
    const now = Date.now();
    for (const [id, t] of this.byId) {
      if (now - t.issuedAt > FORGET_AFTER_MS) this.byId.delete(id);
    }
    const id = triggerId();
    this.admit(id, userId);
    return id;
  }

  /** A trigger issued elsewhere (the tests' fake Slack admits the ids its requests carry). */
  admit(id: string, userId: string): void {
    this.byId.set(id, { id, userId, issuedAt: Date.now(), used: false });
  }

  /** Whose interaction the trigger came from, if it is known. */
  userOf(id: string): string | undefined {
    return this.byId.get(id)?.userId;
  }

  /** Uses up a trigger; Slack's error names for the ways it can fail. */
  exchange(id: unknown): Trigger | { error: string } {
    if (typeof id !== 'string' || id.length === 0) return { error: 'invalid_arguments' };
    const t = this.byId.get(id);
    // Unknown ids look exactly like ones that expired long ago and were forgotten.
    if (!t) return { error: 'expired_trigger_id' };
    if (t.used) return { error: 'exchanged_trigger_id' };
    if (Date.now() - t.issuedAt > this.ttlMs) return { error: 'expired_trigger_id' };
    t.used = true;
    return t;
  }
}
