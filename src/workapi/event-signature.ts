import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Event signatures (docs/design.md, Events): `X-Work-Signature: sha256=<hex HMAC-SHA256 of
 * "<timestamp>.<body>">` with the subscriber's secret, `X-Work-Timestamp: <unix seconds>`.
 * The timestamp is signed too, so a captured delivery cannot be replayed later.
 */
export function signEvent(secret: string, timestamp: number | string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * True when `signature` is the signature of `body` at `timestamp` and the timestamp is within
 * `toleranceSeconds` of `nowSeconds`. Compares in constant time.
 */
export function verifyEventSignature(
  secret: string,
  timestamp: string | number | undefined,
  body: string,
  signature: string | undefined,
  nowSeconds: number = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  if (timestamp === undefined || signature === undefined) return false;
  const ts = typeof timestamp === 'number' ? timestamp : Number(timestamp);
  if (!/^\d{1,12}$/.test(String(timestamp)) || !Number.isSafeInteger(ts)) return false;
  if (Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signEvent(secret, ts, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
