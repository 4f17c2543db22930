/**
 * The in-memory caches of per-request work (users.info answers, service directories, work
 * clients, opened secrets) are bounded and measured: at most `max` entries, the least
 * recently used leaving first, each kept at most `ttlMs` when given; hits, misses and
 * evictions are counted. A cache whose entries differ widely in size (a workspace's whole
 * user list: ten people or fifty thousand) is bounded in bytes too: each entry is weighed
 * (an estimate, `weigh`) and the least recently used leave while the sum is over `maxBytes`.
 * Every cache is listed (weakly) in `cacheStats()`, which /metrics reads, so a cache that
 * grows or misses shows without anyone asking it.
 */

export interface CacheStats {
  name: string;
  size: number;
  max: number;
  /** Estimated bytes held, and the bound (0 when the cache is bounded by entries only). */
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

const live = new Set<WeakRef<BoundedCache<unknown, unknown>>>();

/** The caches of this process, summed by name (several apps in one process add up). */
export function cacheStats(): CacheStats[] {
  const byName = new Map<string, CacheStats>();
  for (const ref of live) {
    const cache = ref.deref();
    if (!cache) {
      live.delete(ref);
      continue;
    }
    const s = byName.get(cache.name) ?? {
      name: cache.name,
      size: 0,
      max: 0,
      bytes: 0,
      maxBytes: 0,
      hits: 0,
      misses: 0,
      evictions: 0,
    };
    s.size += cache.size;
    s.max += cache.max;
    s.bytes += cache.bytes;
    s.maxBytes += Number.isFinite(cache.maxBytes) ? cache.maxBytes : 0;
    s.hits += cache.hits;
    s.misses += cache.misses;
    s.evictions += cache.evictions;
    byName.set(cache.name, s);
  }
  return [...byName.values()];
}

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number; bytes: number }>();
  private weighed = 0;
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(
    /** The `cache` label in /metrics. */
    readonly name: string,
    readonly max: number,
    private readonly ttlMs?: number,
    private readonly now: () => number = Date.now,
    /** The bound on the entries' weights (`weigh`); entries only when not given. */
    readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {
    live.add(new WeakRef(this));
  }

  /** The value, if present and not expired (it becomes the most recently used). */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry && (this.ttlMs === undefined || this.now() - entry.at < this.ttlMs)) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    if (entry) this.delete(key);
    this.misses++;
    return undefined;
  }

  set(key: K, value: V): void {
    this.delete(key);
    this.entries.set(key, { value, at: this.now(), bytes: 0 });
    this.evictOver();
  }

  /**
   * Records what `key`'s entry holds in bytes (an estimate), if it still holds `value` — a
   * promise's answer is weighed when it comes. Entries leave, least recently used first, while
   * the cache is over `maxBytes`: one entry over it on its own is not kept.
   */
  weigh(key: K, value: V, bytes: number): void {
    const entry = this.entries.get(key);
    if (entry?.value !== value) return;
    this.weighed += bytes - entry.bytes;
    entry.bytes = bytes;
    this.evictOver();
  }

  delete(key: K): boolean {
    const entry = this.entries.get(key);
    if (entry) this.weighed -= entry.bytes;
    return this.entries.delete(key);
  }

  private evictOver(): void {
    while (this.entries.size > this.max || this.weighed > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
      this.evictions++;
    }
  }

  /** The keys, least recently used first (for dropping a group of entries). */
  keys(): K[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entries' weights summed (0 when nothing is weighed). */
  get bytes(): number {
    return this.weighed;
  }
}
