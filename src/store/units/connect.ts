/**
 * Connecting a team and linking a channel to a project, written once for both engines over
 * a transaction (tx.ts).
 */
import type { ChannelProject } from '../tables/channel-projects/contract.js';
import type { Connection, ConnectionInfo } from '../tables/connections/contract.js';
import { forgetTeam } from './forget-team.js';
import type { Tx } from './tx.js';

/** A channel's default project, set together with a connection (the sandbox's first run). */
export interface ChannelLinkInput {
  channelId: string;
  projectId: string;
  projectName: string;
}

/**
 * Saves a team's connection with what goes with it: when the team was connected to another
 * service workspace, what forgetTeam forgets goes first (its links and projects point at ids
 * the new one does not have); `links` are then set as channels' default projects (and their
 * projects remembered). Returns the connection it replaced.
 */
export async function connect(
  tx: Tx,
  connection: Connection,
  links: readonly ChannelLinkInput[],
): Promise<{ previous?: ConnectionInfo; switched: boolean }> {
  // Two connects of one team at once take turns: the second sees what the first saved.
  await tx.lockTeam(connection.teamId);
  const previous = await tx.connections.info(connection.teamId);
  const switched = previous !== undefined && previous.workspaceId !== connection.workspaceId;
  if (switched) await forgetTeam(tx, connection.teamId);
  await tx.connections.save(connection);
  for (const link of links) {
    await tx.channelProjects.link(
      connection.teamId,
      link.channelId,
      link.projectId,
      connection.connectedBy,
    );
    await tx.knownProjects.remember(connection.teamId, link.projectId, link.projectName);
  }
  return { ...(previous ? { previous } : {}), switched };
}

/** Makes `projectId` a channel's default project and remembers the project's name. */
export async function linkChannel(
  tx: Tx,
  teamId: string,
  channelId: string,
  project: { projectId: string; projectName: string },
  linkedBy: string,
): Promise<{ before?: ChannelProject }> {
  const before = await tx.channelProjects.get(teamId, channelId);
  await tx.knownProjects.remember(teamId, project.projectId, project.projectName);
  await tx.channelProjects.link(teamId, channelId, project.projectId, linkedBy);
  return before ? { before } : {};
}
