/**
 * A modal submission must be answered within Slack's 3 s. The project forms wait for the
 * service up to a budget, so its answer (a 400 under the right field, or the result) can go
 * in the submission's response; past the budget the modal closes and the result is reported
 * afterwards. The same approach as the connect modal (views/connect.ts).
 */

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
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
    timer.unref();
  });
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
