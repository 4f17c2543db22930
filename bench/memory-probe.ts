/**
 * Loaded into the app under bench:memory (`node --import <probe> dist/…/main.mjs start`):
 * answers the bench's questions over the IPC channel — memory figures (optionally after a
 * full GC), a heap snapshot, allocation sampling — without being part of the app. Only
 * Node's own modules; the inspector is connected only when sampling is asked for. The
 * channel is unref'd: the app's own handles decide when it exits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

export type ProbeAsk =
  | { ask: 'usage'; gc: boolean }
  | { ask: 'snapshot'; dir: string }
  | { ask: 'sample'; dir?: string }
  | { ask: 'maps' };

/** What the app holds (MB). */
export interface ProbeUsage {
  rss: number;
  /** Resident pages not backed by a file (V8's heap, malloc) and file-backed (code). */
  rssAnon: number;
  rssFile: number;
  /** V8's heap: committed, and the part of it in use; per space, committed. */
  heapTotal: number;
  heapUsed: number;
  spaces: Record<string, number>;
  /** Memory outside the heap that V8 knows of (Buffers, ArrayBuffers). */
  external: number;
  arrayBuffers: number;
  /** CPU time of the process so far (user + system), ms. */
  cpuMs: number;
  /** The main thread's GC pauses so far: scavenges (young) and mark-compacts (full), ms. */
  gc: { youngMs: number; young: number; fullMs: number; full: number };
}

// GC pauses as Node reports them, counted from the start (the probe loads before the app).
const gc = { youngMs: 0, young: 0, fullMs: 0, full: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const detail: unknown = 'detail' in e ? e.detail : undefined;
    const kind = detail && typeof detail === 'object' && 'kind' in detail ? detail.kind : undefined;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      gc.youngMs += e.duration;
      gc.young++;
    } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      gc.fullMs += e.duration;
      gc.full++;
    }
  }
}).observe({ entryTypes: ['gc'] });

const MB = 1024 * 1024;

/** RssAnon/RssFile of this process (Linux); zeros elsewhere. */
function residentKinds(): { anon: number; file: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
  } catch {
    return { anon: 0, file: 0 };
  }
}

function usage(): ProbeUsage {
  const u = process.memoryUsage();
  const kinds = residentKinds();
  const cpu = process.cpuUsage();
  const spaces: Record<string, number> = {};
  for (const s of getHeapSpaceStatistics()) {
    spaces[s.space_name.replace(/_space$/, '')] = s.space_size / MB;
  }
  return {
    rss: u.rss / MB,
    rssAnon: kinds.anon,
    rssFile: kinds.file,
    heapTotal: u.heapTotal / MB,
    heapUsed: u.heapUsed / MB,
    spaces,
    external: u.external / MB,
    arrayBuffers: u.arrayBuffers / MB,
    cpuMs: (cpu.user + cpu.system) / 1000,
    gc: { ...gc },
  };
}

let session: import('node:inspector/promises').Session | undefined;

/**
 * Resident memory by mapping (Linux /proc/self/smaps), MB, largest first: each file on its own
 * (the node binary, native addons, libraries), [heap] (malloc's main arena), and anonymous
 * mappings (V8's heap pages, malloc's other arenas, thread stacks) together.
 */
function maps(): [string, number][] {
  const byName = new Map<string, number>();
  let name = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    // A file's parts apart: code (r-x), read-only data (r--), data (rw-).
    if (head) name = head[2] ? `${head[2]} ${head[1]}` : '(anonymous)';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) byName.set(name, (byName.get(name) ?? 0) + Number(rss[1]) / 1024);
  }
  return [...byName].sort((a, b) => b[1] - a[1]);
}

async function answer(m: ProbeAsk): Promise<unknown> {
  if (m.ask === 'maps') return maps();
  if (m.ask === 'usage') {
    if (m.gc) globalThis.gc?.();
    return usage();
  }
  if (m.ask === 'snapshot') {
    globalThis.gc?.();
    return writeHeapSnapshot(join(m.dir, `worklink-${Date.now()}.heapsnapshot`));
  }
  if (!session) {
    const { Session } = await import('node:inspector/promises');
    session = new Session();
    session.connect();
  }
  if (!m.dir) {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 32_768,
      // Every allocation, not only what is still alive: garbage is what grows the heap.
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return 'sampling';
  }
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const { writeFileSync } = await import('node:fs');
  const file = join(m.dir, `worklink-${Date.now()}.heapprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

if (process.send) {
  process.channel?.unref();
  process.on('message', (m: ProbeAsk) => {
    void answer(m).then((reply) => process.send?.(reply));
  });
}
