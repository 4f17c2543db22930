/**
 * app_uninstalled and tokens_revoked (bot): the workspace no longer has Worklink, so its
 * installation (OAuth mode), its service API key, channel links, user links and e-mail
 * lookups go, and its pending assignment DMs fail (no token can send them any more).
 *
 * Enterprise Grid: an org-wide install (keyed by the enterprise) serves every workspace of the
 * org. An event from one of those workspaces removes that workspace only; the org-wide install
 * goes only for an event about the org itself (an enterprise install whose event names no
 * workspace, or names the enterprise as its team) — and with it the organisation's own
 * connection (`/work connect org`) and the connections of its workspaces that have no
 * installation of their own.
 */
import type { App, Context } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';

const UNINSTALLED = 'Worklink was removed from this Slack workspace';

/** Whose installation an uninstall event is about. */
export function uninstallScope(
  context: Pick<Context, 'teamId' | 'enterpriseId' | 'isEnterpriseInstall'>,
  bodyTeamId: string | undefined,
): { teamId?: string; orgId?: string } {
  const teamId = context.teamId ?? bodyTeamId ?? undefined;
  const enterpriseId = context.enterpriseId ?? undefined;
  const orgWide =
    context.isEnterpriseInstall === true &&
    enterpriseId !== undefined &&
    (!teamId || teamId === enterpriseId || teamId.startsWith('E'));
  return orgWide ? { orgId: enterpriseId } : { teamId };
}

/**
 * With the organisation's install go its own connection and every workspace of it that has
 * no installation of its own (its copy of the organisation's key, or a key of its own): none
 * of them can use Worklink any more.
 */
async function forgetOrgWorkspaces(deps: WorklinkDeps, orgId: string, why: string) {
  const teams = (await deps.store.connections.list()).filter(
    (c) => c.enterpriseId === orgId || c.teamId === orgId,
  );
  for (const { teamId } of teams) {
    if (teamId !== orgId && (await deps.store.installations.find(teamId))) continue;
    await deps.store.forgetUninstalledTeam(teamId, `${UNINSTALLED} (${why})`);
  }
}

export function register(app: App, deps: WorklinkDeps): void {
  const forget = async (scope: { teamId?: string; orgId?: string }, why: string) => {
    const { teamId, orgId } = scope;
    const installs = await deps.store.installations.deleteFor(teamId, orgId);
    if (orgId) await forgetOrgWorkspaces(deps, orgId, why);
    const removed = teamId
      ? await deps.store.forgetUninstalledTeam(teamId, `${UNINSTALLED} (${why})`)
      : undefined;
    deps.logger.info(
      `${why}: ${orgId ? `org-wide install of ${orgId}` : `team ${teamId ?? '-'}`} forgotten (installations ${installs}, connection ${removed?.connection ? 'removed' : 'none'}, links ${removed?.links ?? 0}, user links ${removed?.userLinks ?? 0}, pending DMs dropped ${removed?.droppedDms ?? 0}).`,
    );
  };

  app.event('app_uninstalled', async ({ body, context }) => {
    await forget(uninstallScope(context, body.team_id), 'app_uninstalled');
  });

  app.event('tokens_revoked', async ({ event, body, context }) => {
    // Only the bot token matters: user tokens are not used by Worklink.
    if (!event.tokens.bot?.length) return;
    await forget(uninstallScope(context, body.team_id), 'tokens_revoked');
  });
}
