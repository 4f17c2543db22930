/**
 * Who a process is in the leases it takes on shared work (outbox rows, watched projects'
 * looks, digest and index rounds: docs/architecture.md, "Several instances"): its host and
 * pid, for people reading the database, and a random part, since pids repeat across hosts
 * and restarts.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}
