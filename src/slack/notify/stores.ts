/**
 * The notification tables of the app store (src/store/outbox.ts, userLinks.ts,
 * lookupCache.ts), built once per database connection: the Store interface does not carry
 * them, so notifications reach them through `notifyStore(store.db)`.
 */
import type Database from 'better-sqlite3';
import { type LookupCacheStore, lookupCacheStore } from '../../store/lookup-cache.js';
import {
  type OutboxStore,
  outboxStore,
  type SeenEventsStore,
  seenEventsStore,
} from '../../store/outbox.js';
import { type UserLinksStore, userLinksStore } from '../../store/user-links.js';

export interface NotifyStore {
  outbox: OutboxStore;
  links: UserLinksStore;
  lookups: LookupCacheStore;
  seenEvents: SeenEventsStore;
}

const built = new WeakMap<Database.Database, NotifyStore>();

export function notifyStore(db: Database.Database): NotifyStore {
  let s = built.get(db);
  if (!s) {
    s = {
      outbox: outboxStore(db),
      links: userLinksStore(db),
      lookups: lookupCacheStore(db),
      seenEvents: seenEventsStore(db),
    };
    built.set(db, s);
  }
  return s;
}

// ── Waking the worker ────────────────────────────────────────────────────────

const wakers = new WeakMap<Database.Database, Set<() => void>>();

/** Called after rows were queued on `db`, so its worker does not wait for its next poll. */
export function outboxChanged(db: Database.Database): void {
  for (const wake of wakers.get(db) ?? []) wake();
}

/** The worker listens here; returns the unsubscribe function. */
export function onOutboxChange(db: Database.Database, wake: () => void): () => void {
  let set = wakers.get(db);
  if (!set) {
    set = new Set();
    wakers.set(db, set);
  }
  set.add(wake);
  return () => set.delete(wake);
}
