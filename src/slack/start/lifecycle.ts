/**
 * Starts and stops the long-lived parts of a running Worklink (src/long-lived-part.ts): the
 * outbox worker and events receiver, the index refresh, the digest, reminders, quiet hours, the watcher,
 * live messages, channel feeds and the activity hub. They are built by start/parts.ts, live
 * on the running app's handle (handlers reach them only through the ports in
 * context/ports.ts), are started here in order once the app listens (its URL known) and
 * stopped here, newest first, before the store closes. Nothing starts itself.
 */
import type { ListeningHandle, LongLivedPart } from '../../long-lived-part.js';

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
