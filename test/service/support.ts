/**
 * Helpers for tests that run the embedded service for real: temp database files, a started
 * service with a seeded workspace, raw HTTP calls, a database fingerprint and `waitFor`.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import type { Db } from '../../src/service/db.js';
import {
  type SeedResult,
  type ServiceHandle,
  type ServiceOptions,
  seedDemoWorkspace,
  startService,
} from '../../src/service/index.js';
import { isWorkApiError, type WorkApiError } from '../../src/workapi/client.js';

export function makeTempDir(prefix = 'worklink-service-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestService {
  service: ServiceHandle;
  seed: SeedResult;
  dbPath: string;
  dir: string;
  stop(): Promise<void>;
}

/** A service on port 0 over a fresh temp file, with one seeded demo workspace. */
export async function startTestService(
  options: Partial<ServiceOptions> = {},
): Promise<TestService> {
  const temp = makeTempDir();
  const dbPath = join(temp.dir, 'service.db');
  const seed = seedDemoWorkspace(dbPath);
  const service = await startService({ dbPath, port: 0, ...options });
  return {
    service,
    seed,
    dbPath,
    dir: temp.dir,
    stop: async () => {
      await service.close();
      temp.remove();
    },
  };
}

export interface RawAnswer {
  status: number;
  text: string;
  json: unknown;
}

/** One HTTP request exactly as given (no client-side validation). */
export async function raw(
  url: string,
  options: {
    method?: Dispatcher.HttpMethod;
    apiKey?: string;
    /** JSON-encoded unless it is a string (sent as is) or `rawBody` is used. */
    body?: unknown;
    contentType?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.apiKey = options.apiKey;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (options.contentType !== null) {
      headers['content-type'] = options.contentType ?? 'application/json';
    }
  }
  const res = await request(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, text, json };
}

/**
 * A fingerprint of every table: row counts and a SHA-256 over all rows, ordered by every
 * column (some tables are WITHOUT ROWID). Equal fingerprints before and after a request mean
 * the request changed nothing.
 */
export function databaseFingerprint(db: Db): { counts: Record<string, number>; sha256: string } {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as { name: string }[];
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const columns = db.prepare(`SELECT * FROM "${name}" LIMIT 0`).columns().length;
    const order = Array.from({ length: columns }, (_, i) => i + 1).join(', ');
    const rows = db.prepare(`SELECT * FROM "${name}" ORDER BY ${order}`).raw().all();
    counts[name] = rows.length;
    hash.update(name);
    hash.update(JSON.stringify(rows));
  }
  return { counts, sha256: hash.digest('hex') };
}

/** The WorkApiError a call fails with (anything else, or success, fails the test). */
export async function failure(call: Promise<unknown>): Promise<WorkApiError> {
  try {
    await call;
  } catch (e) {
    if (isWorkApiError(e)) return e;
    throw e;
  }
  throw new Error('expected the call to fail with a WorkApiError');
}

/** Polls `check` until it returns a truthy value (or throws on timeout). */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 15_000, intervalMs = 20, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * An undici Agent that keeps the text of every response it hands out, so a test can check
 * what the service really sent (strict schemas) while calling it through WorkClient.
 */
export class RecordingAgent extends Agent {
  readonly answers: { method: string; path: string; status: number; text: string }[] = [];

  // WorkClient only uses the promise form of request() and reads the body once, as a stream.
  override request(...args: unknown[]): never {
    const options = args[0] as Dispatcher.RequestOptions;
    const pending = (
      super.request as (o: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>
    )(options).then(async (res) => {
      const text = await res.body.text();
      this.answers.push({
        method: String(options.method),
        path: options.path,
        status: res.statusCode,
        text,
      });
      return { ...res, body: Readable.from([Buffer.from(text)]) };
    });
    return pending as never;
  }

  last(): { method: string; path: string; status: number; text: string } {
    const answer = this.answers.at(-1);
    if (!answer) throw new Error('no response recorded yet');
    return answer;
  }
}
