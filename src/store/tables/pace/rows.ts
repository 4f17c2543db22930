/** team_pace and channel_pace: the team's state as stored (JSON), and how long rows are kept. */
import { z } from 'zod';
import type { TeamPaceState } from './contract.js';

/** A channel free for this long is forgotten (sweep). */
export const CHANNEL_KEEP_MS = 60_000;
/** A team neither blocked nor sending for this long is forgotten (sweep). */
export const TEAM_KEEP_MS = 3_600_000;

const span = z.object({ start: z.number(), last: z.number(), count: z.number() });
const State = z.object({
  pausedUntil: z.number().optional(),
  pace: z.object({ intervalMs: z.number(), nextAt: z.number(), expiresAt: z.number() }).optional(),
  run: span.optional(),
  burst: z
    .object({ since: z.number(), start: z.number(), count: z.number(), windowMs: z.number() })
    .optional(),
  refusal: z.object({ channel: z.string(), at: z.number() }).optional(),
});

/**
 * A team's state as stored. Only Worklink writes it; anything unreadable (a newer Worklink's
 * shape) reads as a team with no pace, which the next accepted or refused send fills in again.
 */
export function readState(json: string): TeamPaceState {
  try {
    const parsed = State.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
