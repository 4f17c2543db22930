import { createHash, randomBytes } from 'node:crypto';

/** A new id: 24 lowercase hex characters (docs/design.md, Ids). */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** A new API key. Only its hash is stored, so it is shown once, by whoever creates it. */
export function newApiKey(): string {
  return `wk_${randomBytes(24).toString('base64url')}`;
}

/** How keys are stored: SHA-256, hex (docs/design.md, Auth). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
