import { type Db, dataVersion } from './db.js';
import { perConnection } from './per-connection.js';

/**
 * List tasks' answers (JSON as UTF-8 bytes, and the total), kept in memory per project and
 * query: a project of 10,000 tasks costs SQLite milliseconds to build into JSON, and the
 * answer only changes when one of the project's tasks does. Bytes, not text: a cached
 * answer is written to the socket as is (text of 700 KB cost 1.1 ms to encode per request,
 * most of a cached list's cost).
 *
 * Correctness rests on two invalidations, as in task-cache.ts:
 * - this connection's own writes: every code path that changes a project's tasks as a list
 *   shows them (which tasks, their numbers, names or completion) must call
 *   `forgetProjectLists` (today `createTask` and `updateTask`, the only writes to `tasks`).
 *   test/service/list-cache.test.ts compares the answer after every write with a fresh read;
 * - other connections: SQLite's `PRAGMA data_version` changes when they commit, and then
 *   everything is dropped.
 * Memory is bounded by entry count and by the bytes of JSON held.
 */
export interface ListAnswer {
  /** The JSON array, UTF-8. */
  body: Buffer;
  total?: number;
}

interface Entry extends ListAnswer {
  projectId: string;
}

const MAX_ENTRIES = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;

class ListCache {
  /** By key (`listKey`); Map insertion order is the eviction order. */
  private readonly entries = new Map<string, Entry>();
  /** The keys of each project's entries: every create and update forgets its project's. */
  private readonly keysOf = new Map<string, Set<string>>();
  private bytes = 0;
  private dataVersion = -1;

  constructor(private readonly db: Db) {}

  get(key: string): ListAnswer | undefined {
    this.dropIfChangedElsewhere();
    return this.entries.get(key);
  }

  set(key: string, projectId: string, answer: ListAnswer): void {
    // An answer bigger than the whole budget is not kept (it would evict everything).
    if (answer.body.length > MAX_BYTES) return;
    this.delete(key);
    while (this.entries.size >= MAX_ENTRIES || this.bytes + answer.body.length > MAX_BYTES) {
      // Oldest first: a cheap bound, not an LRU.
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
    this.entries.set(key, { ...answer, projectId });
    this.bytes += answer.body.length;
    let keys = this.keysOf.get(projectId);
    if (!keys) {
      keys = new Set();
      this.keysOf.set(projectId, keys);
    }
    keys.add(key);
  }

  /** Only the project's own entries: not a walk over the whole cache on every write. */
  forgetProject(projectId: string): void {
    const keys = this.keysOf.get(projectId);
    if (!keys) return;
    for (const key of keys) this.delete(key);
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
    const keys = this.keysOf.get(entry.projectId);
    keys?.delete(key);
    if (keys?.size === 0) this.keysOf.delete(entry.projectId);
  }

  private dropIfChangedElsewhere(): void {
    const version = dataVersion(this.db);
    if (version !== this.dataVersion) {
      this.entries.clear();
      this.keysOf.clear();
      this.bytes = 0;
      this.dataVersion = version;
    }
  }
}

export const listCache = perConnection((db) => new ListCache(db));

/** The cache key of one list request: the caller's workspace and every query parameter. */
export function listKey(
  workspaceId: string,
  projectId: string,
  complete: 0 | 1 | undefined,
  limit: number | string | undefined,
  offset: number | string | undefined,
): string {
  return JSON.stringify([workspaceId, projectId, complete ?? null, limit ?? null, offset ?? null]);
}

/** Call whenever this connection changes the project's tasks as a list shows them. */
export function forgetProjectLists(db: Db, projectId: string): void {
  listCache(db).forgetProject(projectId);
}
