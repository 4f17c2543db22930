/**
 * The long-lived parts of a running Worklink (today: notifications — the outbox worker, the
 * events receiver's subscription; next: the watcher and the digest scheduler). Each is built
 * by src/slack/start/worklink.ts, kept in `deps` behind its own small interface, and started
 * here once the app listens (its URL known) and stopped here, newest first, before the store
 * closes. Nothing starts itself.
 */

/** Where the running app can be reached (empty in Socket Mode with no extra routes). */
export interface ListeningHandle {
  url: string;
  eventsUrl: string;
}

export interface LongLivedPart {
  /** For log lines: 'notifications'. */
  readonly name: string;
  start(handle: ListeningHandle): void | Promise<void>;
  stop(): void | Promise<void>;
}

export class Lifecycle {
  private readonly started: LongLivedPart[] = [];

  constructor(private readonly parts: readonly LongLivedPart[]) {}

  async start(handle: ListeningHandle): Promise<void> {
    for (const part of this.parts) {
      await part.start(handle);
      this.started.push(part);
    }
  }

  /** Stops what was started, newest first; one part's failure does not keep the others up. */
  async stop(onError: (part: LongLivedPart, error: unknown) => void): Promise<void> {
    while (this.started.length > 0) {
      const part = this.started.pop();
      if (!part) break;
      try {
        await part.stop();
      } catch (e) {
        onError(part, e);
      }
    }
  }
}
