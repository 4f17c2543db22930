import { type Db, dataVersion } from './db.js';
import { perConnection } from './per-connection.js';

/**
 * Get task's answers (JSON text), kept in memory: get task is the hottest read, and building
 * a Task costs several index lookups and two ordered aggregates per request.
 *
 * Correctness rests on two invalidations:
 * - this connection's own writes: every code path that changes what a task's JSON shows must
 *   call `forgetTask` (today only `updateTask`; creating a task adds a new id, no operation
 *   renames groups, changes a status's Type or deletes tasks, and a project's settings such
 *   as feature flags or default priority are not part of a Task). The test
 *   test/service/task-cache.test.ts compares the answer after every write with a fresh read;
 * - other connections (another process such as `seed`, or a second connection in this one):
 *   SQLite's `PRAGMA data_version` changes when they commit, and then everything is dropped.
 */
interface Entry {
  workspaceId: string;
  json: string;
}

const MAX_ENTRIES = 20_000;

class TaskCache {
  private readonly entries = new Map<string, Entry>();
  private dataVersion = -1;

  constructor(private readonly db: Db) {}

  get(taskId: string, workspaceId: string): string | undefined {
    this.dropIfChangedElsewhere();
    const entry = this.entries.get(taskId);
    return entry && entry.workspaceId === workspaceId ? entry.json : undefined;
  }

  set(taskId: string, workspaceId: string, json: string): void {
    if (this.entries.size >= MAX_ENTRIES) {
      // Oldest first (Map keeps insertion order): a cheap bound, not an LRU.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(taskId, { workspaceId, json });
  }

  forget(taskId: string): void {
    this.entries.delete(taskId);
  }

  private dropIfChangedElsewhere(): void {
    const version = dataVersion(this.db);
    if (version !== this.dataVersion) {
      this.entries.clear();
      this.dataVersion = version;
    }
  }
}

export const taskCache = perConnection((db) => new TaskCache(db));

/** Call whenever this connection changes something a task's JSON shows. */
export function forgetTask(db: Db, taskId: string): void {
  taskCache(db).forget(taskId);
}
