/**
 * The store's contract is asynchronous (every table store method returns a Promise) so that
 * an engine with a network between it and the app (PostgreSQL) fits behind it. better-sqlite3
 * is synchronous: each SQLite table module implements `Sync<ItsStore>` — the same methods,
 * answering at once — and `asyncStore` turns that into the contract, each call made through a
 * `Caller` (at once, or after the unit of work in progress: one-at-a-time.ts).
 */

/** `T` with every Promise-returning method answering synchronously instead. */
export type Sync<T> = {
  [K in keyof T]: T[K] extends ((...args: infer A) => Promise<infer R>) | undefined
    ? (...args: A) => R
    : T[K];
};

/** Makes a synchronous call and hands over its answer (or its throw) as a Promise. */
export type Caller = <R>(call: () => R) => Promise<R>;

/** The call runs at once, in the caller's turn (a guard's claim is decided before it goes on). */
export const atOnce: Caller = (call) => {
  try {
    return Promise.resolve(call());
  } catch (e) {
    return Promise.reject(e);
  }
};

/**
 * The async contract over a synchronous implementation: each method is made through `caller`.
 * `keep` names methods that are not store calls (listeners) and stay as they are.
 */
export function asyncStore<T extends object>(
  sync: Sync<T>,
  caller: Caller = atOnce,
  keep: readonly string[] = [],
): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sync)) {
    out[key] =
      typeof value !== 'function' || keep.includes(key)
        ? value
        : (...args: unknown[]) => caller(() => Reflect.apply(value, sync, args));
  }
  // Same keys, each method's answer wrapped in a Promise: what Sync<T> is to T.
  return out as T;
}
