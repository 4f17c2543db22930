/**
 * The embedded work-management service: `startService` serves the 13 operations of the spec
 * (docs/work-management-api.md) over HTTP from a SQLite file; `seedDemoWorkspace` creates a demo workspace and its API key.
 */
import { type Db, openDatabase } from './db.js';
import { EventDelivery, type EventsSubscriber, type Logger } from './events.js';
import { GroupCommit } from './group-commit.js';
import { buildServer } from './server.js';
import { type Caller, revokeApiKey } from './workspaces.js';

export { signEvent, verifyEventSignature } from '../workapi/event-signature.js';
export type { EventsSubscriber, Logger } from './events.js';
export { type SeedResult, seedDemoWorkspace } from './seed.js';

export interface ServiceOptions {
  dbPath: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  eventsUrl?: string;
  eventsSecret?: string;
  logger?: Logger;
  /** First retry delay of event delivery (tests shorten it). */
  eventsRetryBaseMs?: number;
}

export interface ServiceHandle {
  /** `http://host:port/v1.0` */
  baseUrl: string;
  /** `http://host:port/api/v1` */
  altUrl: string;
  /** `http://host:port` */
  url: string;
  db: Db;
  /** Sets or replaces where events go (the Slack app subscribes itself at start). */
  setEventsSubscriber(subscriber: EventsSubscriber | undefined): void;
  /** Revokes a key: from now on it is answered 401. True when it existed. */
  revokeKey(apiKey: string): boolean;
  close(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<ServiceHandle> {
  if ((options.eventsUrl === undefined) !== (options.eventsSecret === undefined)) {
    throw new Error('eventsUrl and eventsSecret go together: give both or neither.');
  }
  const db = openDatabase(options.dbPath);
  const events = new EventDelivery(db, {
    subscriber:
      options.eventsUrl && options.eventsSecret
        ? { url: options.eventsUrl, secret: options.eventsSecret }
        : undefined,
    logger: options.logger,
    retryBaseMs: options.eventsRetryBaseMs,
  });
  const knownKeys = new Map<string, Caller>();
  const app = buildServer({
    db,
    commits: new GroupCommit(db, () => events.notify()),
    logger: options.logger,
    knownKeys,
  });
  try {
    await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  } catch (e) {
    await app.close();
    db.close();
    throw e;
  }
  events.start();
  const address = app.server.address();
  // A TCP listener always has an address object (a string is a pipe's or socket file's).
  if (address === null || typeof address === 'string') {
    throw new Error(`the service is not listening on TCP (${address})`);
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    baseUrl: `${url}/v1.0`,
    altUrl: `${url}/api/v1`,
    db,
    setEventsSubscriber: (s) => events.setSubscriber(s),
    revokeKey(apiKey) {
      knownKeys.delete(apiKey);
      return revokeApiKey(db, apiKey);
    },
    close: () => {
      closing ??= (async () => {
        await app.close();
        await events.close();
        db.close();
      })();
      return closing;
    },
  };
}
