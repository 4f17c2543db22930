/**
 * A background round run on a timer (the watcher, the task index refresh, the daily digest,
 * quiet hours). Never two rounds at once; a round that fails — the database briefly
 * unreachable, say — is logged and the next tick tries again. A rejected round must never
 * escape: an unhandled rejection ends a Node process, and with several instances on one
 * database a short outage would otherwise take every instance down at the same moment.
 */
import type { Logger } from '@slack/bolt';
import { errMessage } from './error-message.js';

export interface PeriodicOptions {
  /** For the log line: 'task index refresh'. */
  name: string;
  intervalMs: number;
  round: () => Promise<unknown>;
  logger: Pick<Logger, 'warn'>;
}

export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly o: PeriodicOptions) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.o.intervalMs);
    this.timer.unref();
  }

  /** Starts a round unless one is running; resolves when that round ends (never rejects). */
  tick(): Promise<void> {
    this.running ??= this.o
      .round()
      .then(
        () => undefined,
        (e: unknown) => this.o.logger.warn(`${this.o.name}: a round failed: ${errMessage(e)}`),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** No more rounds; waits for the one running. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
