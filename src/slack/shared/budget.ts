/**
 * A modal submission must be answered within Slack's 3 s. The project forms wait for the
 * service up to a budget, so its answer (a 400 under the right field, or the result) can go
 * in the submission's response; past the budget the modal closes and the result is reported
 * afterwards. The same approach as the connect modal (views/connect.ts).
 */
import { withinBudget } from './concurrency.js';

/** Time allowed for the service before a project form must be answered. */
export const PROJECT_SUBMIT_BUDGET_MS = 2_000;

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Never rejects. */
export function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/** The settled outcome, or undefined when it takes longer than `ms`. */
export async function within<T>(settled: Promise<T>, ms: number): Promise<T | undefined> {
  const answer = await withinBudget(settled, ms);
  return answer.inTime ? answer.value : undefined;
}
