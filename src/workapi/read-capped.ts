/**
 * Reads a response body up to a limit, and stops there: a service (or a proxy in front of it)
 * that answers with hundreds of megabytes must not take the app's memory with it. Past the
 * limit the body is destroyed, which closes the connection instead of draining it.
 */
import type { Dispatcher } from 'undici';

export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** The answer was larger than the limit; nothing of it is used. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  constructor(readonly limit: number) {
    super(`larger than ${formatBytes(limit)}`);
  }
}

export async function readCapped(res: Dispatcher.ResponseData, limit: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    res.body.destroy();
    throw new ResponseTooLargeError(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const data of res.body) {
    const chunk = Buffer.isBuffer(data) ? data : Buffer.from(String(data));
    size += chunk.length;
    if (size > limit) {
      res.body.destroy();
      throw new ResponseTooLargeError(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** "8 MiB", "512 KiB", "100 bytes". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
