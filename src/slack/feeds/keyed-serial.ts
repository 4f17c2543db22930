/**
 * Runs jobs one at a time per key (a feed channel), in the order they came: the burst rule
 * counts what the channel already got, so two new tasks must not be judged at once. Jobs of
 * other keys run alongside. `waiting(key)` tells a job whether more are queued behind it
 * (a summary is then edited once, by the last of them).
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly counts = new Map<string, number>();

  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const next = (this.tails.get(key) ?? Promise.resolve()).then(job).finally(() => {
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else {
        this.counts.delete(key);
        this.tails.delete(key);
      }
    });
    // The chain goes on after a failed job; the caller still sees its own failure.
    this.tails.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }

  /** Jobs queued behind the one running now. */
  waiting(key: string): number {
    return Math.max(0, (this.counts.get(key) ?? 0) - 1);
  }

  /** Resolves when no job of any key is queued or running. */
  async idle(): Promise<void> {
    while (this.tails.size) await Promise.all(this.tails.values());
  }
}
