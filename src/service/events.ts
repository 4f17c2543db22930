import { Agent, request } from 'undici';
import { errMessage } from '../error-message.js';
import { signEvent } from '../workapi/event-signature.js';
import type { Db } from './db.js';
import {
  lastDeliveredSeq,
  markDelivered,
  markFailed,
  oldestUndelivered,
  type PendingEvent,
} from './event-outbox.js';

/** Where events go: the subscriber's URL and the secret their signatures use. */
export interface EventsSubscriber {
  url: string;
  secret: string;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface EventDeliveryOptions {
  subscriber?: EventsSubscriber;
  logger?: Logger;
  /** First retry delay; doubles per failure up to `retryCapMs`, with jitter. */
  retryBaseMs?: number;
  retryCapMs?: number;
  requestTimeoutMs?: number;
  /** How often an idle worker looks for events written by another process (e.g. `seed`). */
  idlePollMs?: number;
}

/**
 * Delivers the outbox's events one at a time, oldest first, as signed POSTs. An event is
 * marked delivered only after a 2xx; anything else is retried with exponential backoff and
 * jitter, and later events wait for it (delivery order = creation order). Undelivered rows
 * stay in the database, so a restart picks up where the last run stopped.
 */
export class EventDelivery {
  private subscriber: EventsSubscriber | undefined;
  private readonly logger: Logger | undefined;
  private readonly retryBaseMs: number;
  private readonly retryCapMs: number;
  private readonly requestTimeoutMs: number;
  private readonly idlePollMs: number;
  private readonly agent = new Agent({ keepAliveTimeout: 10_000 });
  private closed = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private inFlight: AbortController | undefined;
  private failures = 0;
  /** The seq of the last event delivered; the next one to deliver comes after it. */
  private deliveredThrough: number | undefined;

  constructor(
    private readonly db: Db,
    options: EventDeliveryOptions = {},
  ) {
    this.subscriber = options.subscriber;
    this.logger = options.logger;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.retryCapMs = options.retryCapMs ?? 30_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.idlePollMs = options.idlePollMs ?? 5_000;
  }

  start(): void {
    this.running ??= this.loop().catch((e: unknown) => {
      this.logger?.error(`event delivery stopped: ${errMessage(e)}`);
    });
  }

  /** Replaces (or removes) the subscriber; pending events go to the new one at once. */
  setSubscriber(subscriber: EventsSubscriber | undefined): void {
    this.subscriber = subscriber;
    this.failures = 0;
    this.notify();
  }

  /** Called after an event is committed, so delivery does not wait for the idle poll. */
  notify(): void {
    this.wake?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.inFlight?.abort();
    this.notify();
    await this.running;
    await this.agent.close();
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      if (this.db.inTransaction) {
        // A shared transaction of the server's (group-commit.ts) is open: what it holds is
        // not committed yet. It commits at the end of this turn.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const subscriber = this.subscriber;
      // Where the undelivered tail starts: found once, then moved on with each delivery. (An
      // event another process delivered meanwhile is skipped by the query's own filter.)
      this.deliveredThrough ??= lastDeliveredSeq(this.db);
      const event = subscriber ? oldestUndelivered(this.db, this.deliveredThrough) : undefined;
      if (!subscriber || !event) {
        await this.sleep(this.idlePollMs);
        continue;
      }
      const problem = await this.deliver(subscriber, event);
      if (this.closed) return;
      if (problem === undefined) {
        markDelivered(this.db, event.seq);
        this.deliveredThrough = event.seq;
        this.failures = 0;
        continue;
      }
      markFailed(this.db, event.seq, problem);
      this.failures++;
      const delay = this.backoff(this.failures);
      this.logger?.warn(
        `event ${event.id} not delivered (${problem}); attempt ${event.attempts + 1}, ` +
          `retrying in ${Math.round(delay)} ms`,
      );
      // A new subscriber resets failures and wakes us: retry at once.
      await this.sleep(delay);
    }
  }

  /** One attempt; undefined on a 2xx, else what went wrong. */
  private async deliver(
    subscriber: EventsSubscriber,
    event: PendingEvent,
  ): Promise<string | undefined> {
    // Signed at send time, so a retry hours later still passes the receiver's time window.
    const timestamp = Math.floor(Date.now() / 1000);
    const controller = new AbortController();
    this.inFlight = controller;
    const timer = setTimeout(() => controller.abort(), this.requestTimeoutMs);
    try {
      const res = await request(subscriber.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          'x-work-timestamp': String(timestamp),
          'x-work-signature': signEvent(subscriber.secret, timestamp, event.payload),
        },
        body: event.payload,
      });
      await res.body.dump();
      return res.statusCode >= 200 && res.statusCode < 300 ? undefined : `HTTP ${res.statusCode}`;
    } catch (e) {
      if (controller.signal.aborted) return 'timed out or stopped';
      return errMessage(e);
    } finally {
      clearTimeout(timer);
      this.inFlight = undefined;
    }
  }

  /** Exponential backoff with jitter: base·2^(n-1), capped, then 50-100 % of that. */
  private backoff(failures: number): number {
    const ceiling = Math.min(this.retryCapMs, this.retryBaseMs * 2 ** Math.min(failures - 1, 30));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      // unref: an idle worker alone must not keep the process alive.
      const timer = setTimeout(done, ms).unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}
