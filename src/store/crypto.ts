/**
 * Secrets at rest (service API keys, Slack bot tokens): AES-256-GCM with a random 12-byte IV
 * and the 16-byte auth tag, so a changed byte or a wrong key is detected, not decrypted into
 * garbage. The row's identity (e.g. the team id) is bound in as associated data, so a sealed
 * value copied onto another row does not open.
 *
 * Key material: SECRETS_KEY (32 bytes) or DATA_DIR/secret.key, generated once with mode 0600.
 * Nothing here logs; errors never contain the key or the plaintext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BoundedCache } from '../bounded-cache.js';
import { errCode } from '../error-message.js';
import { makePrivateDir } from '../private-files.js';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_FILE = 'secret.key';

/** A stored secret could not be opened: wrong SECRETS_KEY / secret.key, or damaged data. */
export class DecryptError extends Error {
  override readonly name = 'DecryptError';
  constructor() {
    super(
      'A stored secret cannot be decrypted: SECRETS_KEY (or DATA_DIR/secret.key) is not the key it was encrypted with.',
    );
  }
}

export interface SecretBox {
  seal(plaintext: string, associatedData: string): Buffer;
  /** Throws DecryptError when the key is wrong or the data was changed. */
  open(sealed: Buffer, associatedData: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secrets key must be 32 bytes.');
  /** Per row (associated data): the sealed bytes last opened and their text. */
  const opened = new BoundedCache<string, { sealed: Buffer; text: string }>(
    'opened_secrets',
    10_000,
  );
  return {
    seal(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open(sealed, associatedData) {
      // The same sealed bytes for the same row open to the same text: a command reads its
      // team's connection each time, and AES-GCM per request showed in profiles.
      const known = opened.get(associatedData);
      if (known?.sealed.equals(sealed)) return known.text;
      const text = openSealed(sealed, associatedData);
      opened.set(associatedData, { sealed: Buffer.from(sealed), text });
      return text;
    },
  };
  function openSealed(sealed: Buffer, associatedData: string): string {
    if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) {
      throw new DecryptError();
    }
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const body = sealed.subarray(1 + IV_BYTES + TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new DecryptError();
    }
  }
}

/**
 * The configured key, else DATA_DIR/secret.key, created (32 random bytes, hex, mode 0600)
 * when missing. The `wx` flag makes two processes starting at once agree on one key.
 */
export function loadSecretsKey(dataDir: string, configured?: Buffer): Buffer {
  if (configured) return configured;
  makePrivateDir(dataDir);
  const file = join(dataDir, KEY_FILE);
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if (errCode(e) !== 'EEXIST') throw e;
  }
  // Tighten a key file someone copied in with looser permissions.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new Error(`${file} does not hold a 64-hex-character key; restore it or set SECRETS_KEY.`);
  }
  return Buffer.from(text, 'hex');
}
