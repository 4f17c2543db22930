/**
 * Forgetting a team, written once for both engines over a transaction (tx.ts): when it
 * disconnects from its service workspace (forgetTeam) and when it removes Worklink
 * (forgetUninstalledTeam).
 */
import type { Tx } from './tx.js';

/** What forgetTeam removed. */
export interface ForgottenTeam {
  connection: boolean;
  links: number;
  projects: number;
}

/** What forgetUninstalledTeam removed, beyond forgetTeam. */
export interface ForgottenUninstalledTeam extends ForgottenTeam {
  userLinks: number;
  droppedDms: number;
}

/**
 * What Worklink keeps about a team's service workspace: the connection (API key), people's
 * own keys, channel links and feeds, known projects, the task index and the watcher's state.
 */
export async function forgetTeam(tx: Tx, teamId: string): Promise<ForgottenTeam> {
  await tx.taskIndex.deleteTeam(teamId);
  await tx.taskCreators.deleteTeam(teamId);
  await tx.reminders.deleteTeam(teamId);
  await tx.watchState.forgetTeam(teamId);
  await tx.channelFeeds.deleteTeam(teamId);
  await tx.personalKeys.deleteTeam(teamId);
  return {
    connection: await tx.connections.delete(teamId),
    links: await tx.channelProjects.deleteTeam(teamId),
    projects: await tx.knownProjects.deleteTeam(teamId),
  };
}

/**
 * What forgetTeam forgets, and the team's user links, e-mail lookups, settings, held DMs and
 * task messages too. Its pending DMs fail with `reason` (no token to send them with); the
 * rows stay, so one DM per assignee still holds should the team install Worklink again.
 */
export async function forgetUninstalledTeam(
  tx: Tx,
  teamId: string,
  reason: string,
  now: number,
): Promise<ForgottenUninstalledTeam> {
  await tx.lookups.clear(teamId);
  await tx.notifySettings.deleteTeam(teamId);
  await tx.teamSettings.deleteTeam(teamId);
  await tx.unfurlSettings.deleteTeam(teamId);
  // Held DMs could no longer be sent.
  await tx.heldDms.deleteTeam(teamId);
  // Without a token its messages can no longer be updated.
  await tx.taskMessages.deleteTeam(teamId);
  return {
    ...(await forgetTeam(tx, teamId)),
    userLinks: await tx.userLinks.deleteTeam(teamId),
    droppedDms: await tx.outbox.failPending(teamId, reason, now),
  };
}
