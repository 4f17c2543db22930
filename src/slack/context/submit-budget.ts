/**
 * A modal submission must be answered within Slack's 3 s. The forms (task, comment, project,
 * connect) wait for the service up to one budget, so its answer — a 400 under the right
 * field, or the result — can go in the submission's response; past the budget the modal
 * closes and the outcome is reported by message afterwards (docs/design.md, Rules that
 * shape every listener).
 */

/** Time a submission may wait for the service before it must be answered. */
export const SUBMIT_BUDGET_MS = 2_200;

/** What is left of the budget for a submission that arrived at `started` (never < 0). */
export function budgetLeft(started: number, budgetMs = SUBMIT_BUDGET_MS): number {
  return Math.max(0, budgetMs - (Date.now() - started));
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Never rejects: the outcome, good or bad, as a value (for withinBudget). */
export function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/**
 * Waits for `work` at most `ms`. `work` should not reject (wrap failures in its value, e.g.
 * with settle): when time runs out it keeps running and the caller reports its outcome later.
 */
export async function withinBudget<T>(
  work: Promise<T>,
  ms: number,
): Promise<{ inTime: true; value: T } | { inTime: false }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ inTime: false }>((resolve) => {
    timer = setTimeout(() => resolve({ inTime: false }), Math.max(0, ms));
    timer.unref();
  });
  try {
    return await Promise.race([work.then((value) => ({ inTime: true as const, value })), late]);
  } finally {
    clearTimeout(timer);
  }
}
