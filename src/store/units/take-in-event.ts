/** Taking in a service event once, written once for both engines over a transaction (tx.ts). */
import type { ConnectionInfo } from '../tables/connections/contract.js';
import type { NewOutboxRow } from '../tables/outbox/contract.js';
import type { Tx } from './tx.js';

/** A service event whose DMs are queued at most once (takeInEvent). */
export interface IncomingEvent {
  id: string;
  /** The service workspace it happened in: every Slack team connected to it is told. */
  workspaceId: string;
  projectId?: string;
}

/** Builds an event's outbox rows for one team: plain computation, no I/O. */
export type RowsFor = (team: ConnectionInfo, projectName: string | undefined) => NewOutboxRow[];

/**
 * Marks the event's id seen and queues (mode 'ignore') the rows `rowsFor` builds for each
 * Slack team connected to its workspace. A replay changes nothing (`duplicate`). On
 * PostgreSQL the event id's row is the lock: a second instance taking in the same event
 * waits at markSeen for the first one's commit, then finds it seen.
 */
export async function takeInEvent(
  tx: Tx,
  event: IncomingEvent,
  rowsFor: RowsFor,
  now: number,
): Promise<{ duplicate: boolean; teams: number; queued: number }> {
  if (!(await tx.seenEvents.markSeen(event.id, now))) {
    return { duplicate: true, teams: 0, queued: 0 };
  }
  const teams = (await tx.connections.list()).filter((c) => c.workspaceId === event.workspaceId);
  let queued = 0;
  for (const team of teams) {
    const projectName = event.projectId
      ? (await tx.knownProjects.get(team.teamId, event.projectId))?.projectName
      : undefined;
    queued += (await tx.outbox.enqueue(rowsFor(team, projectName), 'ignore', now)).length;
  }
  return { duplicate: false, teams: teams.length, queued };
}
