/**
 * Signed addresses of the embedded service's read-only pages (docs/links.md, "Task pages").
 *
 * A page shows one task or one project to whoever has its address, so the address carries a
 * signature nobody can make without a key of the task's workspace: HMAC-SHA256, keyed with
 * the SHA-256 of an API key of that workspace (what the service stores in place of the key),
 * over `task:<id>` or `project:<id>`. Worklink signs with its connection's key; the service
 * checks it against the hashes of the workspace's keys. No key, no page: a guessed or
 * altered address answers "not found", exactly like an unknown id.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type PageKind = 'task' | 'project';

/** The path of a page under the service's origin (no version segment). */
export const PAGES_PREFIX = '/pages';

/** SHA-256 of an API key, hex: how the service stores it, and the signing key of its pages. */
export function apiKeyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/** The signature of a page address, made with a key's hash. */
export function pageSignature(keyHash: string, kind: PageKind, id: string): string {
  return createHmac('sha256', keyHash).update(`${kind}:${id}`).digest('base64url').slice(0, 32);
}

/** True when `signature` was made with one of `keyHashes` for this page. */
export function pageSignatureValid(
  keyHashes: readonly string[],
  kind: PageKind,
  id: string,
  signature: string,
): boolean {
  const given = Buffer.from(signature);
  let ok = false;
  for (const hash of keyHashes) {
    const expected = Buffer.from(pageSignature(hash, kind, id));
    // Every hash is checked (no early exit), each comparison in constant time.
    if (expected.length === given.length && timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}

/** The signed address of a page at `origin` (e.g. http://127.0.0.1:4100). */
export function pageUrl(origin: string, kind: PageKind, id: string, keyHash: string): string {
  const sig = pageSignature(keyHash, kind, id);
  return `${origin.replace(/\/+$/, '')}${PAGES_PREFIX}/${kind}/${encodeURIComponent(id)}?sig=${sig}`;
}
