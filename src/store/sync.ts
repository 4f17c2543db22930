/**
 * The store's contract is asynchronous (every table store method returns a Promise) so that
 * an engine with a network between it and the app (PostgreSQL) fits behind it. better-sqlite3
 * is synchronous: each SQLite table module implements `Sync<ItsStore>` — the same methods,
 * answering at once — which lets the units of work in index.ts compose them inside one
 * better-sqlite3 transaction, and `asyncStore` turns that into the contract.
 */

/** `T` with every Promise-returning method answering synchronously instead. */
export type Sync<T> = {
  [K in keyof T]: T[K] extends ((...args: infer A) => Promise<infer R>) | undefined
    ? (...args: A) => R
    : T[K];
};

/**
 * The async contract over a synchronous implementation. The work runs at once, in the
 * caller's turn, as before (a guard's claim is decided before the request goes on); a throw
 * becomes a rejection. `keep` names methods that are not store calls (listeners) and stay
 * as they are.
 */
export function asyncStore<T extends object>(sync: Sync<T>, keep: readonly (keyof T)[] = []): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sync)) {
    if (typeof value !== 'function' || keep.includes(key as keyof T)) {
      out[key] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => unknown;
    out[key] = (...args: unknown[]) => {
      try {
        return Promise.resolve(fn(...args));
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }
  return out as T;
}
