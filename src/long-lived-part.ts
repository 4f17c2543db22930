/**
 * A long-lived part of a running Worklink: something started once the app listens (its URL
 * known) and stopped before the store closes — the outbox worker and events receiver, the
 * watcher, the index refresh, live messages, channel feeds, the digest, quiet hours. Parts
 * are built and started in one place, src/slack/start (lifecycle.ts); nothing starts itself.
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
