/**
 * Get-task answers reach the index together: the sightings that arrive in one turn of the
 * event loop are written in one unit of work (seeMany / recordMany) instead of one each.
 * A `/work list` reads its page's 20 tasks whole, and a burst of lists read the same tasks
 * at once (shared reads): one transaction per answer was the largest cost of a command after
 * the ack. Each caller still waits until its sighting is written, as before, so whoever
 * made the call reads it in the index next. An identical sighting told twice in one turn
 * is written once (the second would change nothing).
 */
import type { SeenChange, TaskSighting } from '../store/index.js';

interface Waiting {
  resolve(): void;
  reject(e: unknown): void;
}

export class SightingBatch {
  private pending = new Map<string, { sighting: TaskSighting; waiting: Waiting[] }>();
  private scheduled = false;

  constructor(
    /** Writes the sightings in one unit of work; the changes it saw (seeMany), or none. */
    private readonly write: (sightings: TaskSighting[]) => Promise<readonly SeenChange[]>,
    /** Told the changes a batch saw. */
    private readonly tell: (changes: readonly SeenChange[]) => void,
  ) {}

  /** Resolves once `sighting` is written (with the others of this turn). */
  add(sighting: TaskSighting): Promise<void> {
    return new Promise((resolve, reject) => {
      const key = JSON.stringify(sighting);
      const entry = this.pending.get(key) ?? { sighting, waiting: [] };
      entry.waiting.push({ resolve, reject });
      this.pending.set(key, entry);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.scheduled = false;
    const waiting = batch.flatMap((e) => e.waiting);
    try {
      const changes = await this.write(batch.map((e) => e.sighting));
      // Told before the callers go on, as when each answer was written alone.
      this.tell(changes);
      for (const w of waiting) w.resolve();
    } catch (e) {
      for (const w of waiting) w.reject(e);
    }
  }
}
