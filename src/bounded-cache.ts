/**
 * The in-memory caches of per-request work (users.info answers, service directories, work
 * clients, opened secrets) are bounded and measured: at most `max` entries, the least
 * recently used leaving first, each kept at most `ttlMs` when given; hits, misses and
 * evictions are counted. Every cache is listed (weakly) in `cacheStats()`, which /metrics
 * reads, so a cache that grows or misses shows without anyone asking it.
 */

export interface CacheStats {
  name: string;
  size: number;
  max: number;
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
      hits: 0,
      misses: 0,
      evictions: 0,
    };
    s.size += cache.size;
    s.max += cache.max;
    s.hits += cache.hits;
    s.misses += cache.misses;
    s.evictions += cache.evictions;
    byName.set(cache.name, s);
  }
  return [...byName.values()];
}

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(
    /** The `cache` label in /metrics. */
    readonly name: string,
    readonly max: number,
    private readonly ttlMs?: number,
    private readonly now: () => number = Date.now,
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
    if (entry) this.entries.delete(key);
    this.misses++;
    return undefined;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: this.now() });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
      this.evictions++;
    }
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** The keys, least recently used first (for dropping a group of entries). */
  keys(): K[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }
}
