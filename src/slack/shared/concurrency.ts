/** Bounded parallelism: list pages fetch 20 tasks without opening 20 requests at once. */

/** Maps `items` through `fn` with at most `limit` calls in flight; keeps the order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}

/**
 * Waits for `work` at most `ms`. `work` must not reject (wrap failures in its value): when
 * time runs out it keeps running and the caller reports its outcome later.
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
