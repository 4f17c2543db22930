/** leases. */
import type { LeasesStore } from './contract.js';

export interface LeasedRound {
  holder: string;
  now: number;
  leaseMs: number;
  /** When each key's work is due again once done. */
  nextAt: number;
}

/**
 * A periodic round over `keys` with leases: runs `work` for each key this instance takes,
 * one after the other, and finishes each (also when `work` throws; the error is passed on
 * to `failed`). Keys another instance holds or did this round are left out.
 */
export async function runLeased(
  leases: LeasesStore,
  keys: readonly string[],
  round: LeasedRound,
  work: (key: string) => Promise<void>,
  failed: (key: string, e: unknown) => void,
): Promise<void> {
  const { taken } = await leases.claim(keys, round.holder, round.now, round.leaseMs);
  for (const { key } of taken) {
    try {
      await work(key);
    } catch (e) {
      failed(key, e);
    } finally {
      await leases.finish(key, round.holder, round.nextAt);
    }
  }
}
