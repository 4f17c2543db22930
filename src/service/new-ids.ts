import { createHash, randomBytes } from 'node:crypto';

/**
 * Ids are shaped as a document store's object ids (the hosted service's are): 4 bytes of
 * seconds since 1970, 5 random bytes drawn once per process, and a 3-byte counter starting
 * at a random value. So each new id is greater than the last, and a new row goes at the end
 * of every index keyed by id (tasks, assignees, subscribers, events) instead of at a random
 * page: a commit of many creates then rewrites a few index pages, not one per create each
 * (group-commit.ts), and no random bytes are drawn per id.
 */
const processPart = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

/** A new id: 24 lowercase hex characters (docs/design.md, Ids). */
export function newId(): string {
  counter = (counter + 1) & 0xffffff;
  const seconds = Math.floor(Date.now() / 1000);
  return (
    seconds.toString(16).padStart(8, '0') + processPart + counter.toString(16).padStart(6, '0')
  );
}

/** A new API key. Only its hash is stored, so it is shown once, by whoever creates it. */
export function newApiKey(): string {
  return `wk_${randomBytes(24).toString('base64url')}`;
}

/** How keys are stored: SHA-256, hex (docs/design.md, Auth). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
