import { type Db, sql } from './db.js';
import { JsonText } from './json-text.js';
import { newId } from './new-ids.js';
import { nowIso } from './time.js';

/** The envelope every event carries; `data` holds the event's own fields. */
export interface EventEnvelope {
  id: string;
  type: string;
  createdAt: string;
  workspaceId: string;
  actorId: string;
}

/**
 * Appends an event to the outbox. Call inside the transaction that makes the change, so the
 * event exists exactly when the change does. The payload is the envelope's fields, then
 * `data`'s: each as JSON, except a JsonText (a Task that SQLite built as JSON), which is
 * spliced in as it is rather than parsed only to be serialised again. Undefined values are
 * left out, as JSON.stringify leaves them out.
 */
export function recordEvent(
  db: Db,
  type: string,
  workspaceId: string,
  actorId: string,
  data: Record<string, unknown>,
  /** When the change was made (default now). */
  createdAt: string = nowIso(),
): string {
  const envelope: EventEnvelope = { id: newId(), type, createdAt, workspaceId, actorId };
  let payload = JSON.stringify(envelope).slice(0, -1);
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const json = value instanceof JsonText ? value.text.toString() : JSON.stringify(value);
    payload += `,${JSON.stringify(key)}:${json}`;
  }
  sql(
    db,
    `INSERT INTO events (id, type, workspace_id, payload, created_at) VALUES (?, ?, ?, ?, ?)`,
  ).run(envelope.id, type, workspaceId, `${payload}}`, envelope.createdAt);
  return envelope.id;
}

export interface PendingEvent {
  seq: number;
  id: string;
  payload: string;
  attempts: number;
}

/**
 * Delivery is strictly in order (events.ts delivers the oldest undelivered event before any
 * other), so the delivered events are always the first ones and the undelivered ones the
 * tail: no index of undelivered events is needed (migrations.ts, entry 3). This is the seq of
 * the last delivered event (0 if none), found from the end, past the undelivered tail only.
 */
export function lastDeliveredSeq(db: Db): number {
  return (
    sql<{ seq: number }>(
      db,
      'SELECT seq FROM events WHERE delivered_at IS NOT NULL ORDER BY seq DESC LIMIT 1',
    ).get()?.seq ?? 0
  );
}

/** The oldest undelivered event after `after` (a delivered seq: events.ts remembers it). */
export function oldestUndelivered(db: Db, after: number): PendingEvent | undefined {
  return sql<PendingEvent>(
    db,
    `SELECT seq, id, payload, attempts FROM events
      WHERE seq > ? AND delivered_at IS NULL ORDER BY seq LIMIT 1`,
  ).get(after);
}

export function markDelivered(db: Db, seq: number): void {
  sql(db, 'UPDATE events SET delivered_at = ?, attempts = attempts + 1 WHERE seq = ?').run(
    nowIso(),
    seq,
  );
}

export function markFailed(db: Db, seq: number, error: string): void {
  sql(db, 'UPDATE events SET attempts = attempts + 1, last_error = ? WHERE seq = ?').run(
    error.slice(0, 500),
    seq,
  );
}

export function countUndelivered(db: Db): number {
  return (
    sql<{ n: number }>(
      db,
      'SELECT COUNT(*) AS n FROM events WHERE seq > ? AND delivered_at IS NULL',
    ).get(lastDeliveredSeq(db))?.n ?? 0
  );
}
