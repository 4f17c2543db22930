import { randomBytes } from 'node:crypto';

// Slack ids are a type letter followed by upper-case letters and digits.
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

export function slackId(prefix: string, length = 10): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

let lastMicros = 0;

/** A message timestamp ("1712345678.000123"): unique and increasing, as Slack's are per channel. */
export function nextTs(): string {
  const micros = Math.max(Date.now() * 1000, lastMicros + 1);
  lastMicros = micros;
  const seconds = Math.floor(micros / 1_000_000);
  return `${seconds}.${String(micros % 1_000_000).padStart(6, '0')}`;
}

/** Trigger ids look like "12345.98765.abcd2358fdea" in Slack. */
export function triggerId(): string {
  return `${Date.now()}.${Math.floor(Math.random() * 1e9)}.${randomHex(16)}`;
}
