/**
 * app_uninstalled and tokens_revoked (bot): the workspace no longer has Worklink, so its
 * installation (OAuth mode), its service API key, channel links, user links and e-mail
 * lookups go, and its pending assignment DMs fail (no token can send them any more).
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';

const UNINSTALLED = 'Worklink was removed from this Slack workspace';

export function register(app: App, deps: WorklinkDeps): void {
  const forget = (teamId: string | undefined, enterpriseId: string | undefined, why: string) => {
    const installs = deps.store.installations.deleteFor(teamId, enterpriseId);
    const removed = teamId
      ? deps.store.forgetUninstalledTeam(teamId, `${UNINSTALLED} (${why})`)
      : undefined;
    deps.logger.info(
      `${why}: team ${teamId ?? '-'} forgotten (installations ${installs}, connection ${removed?.connection ? 'removed' : 'none'}, links ${removed?.links ?? 0}, user links ${removed?.userLinks ?? 0}, pending DMs dropped ${removed?.droppedDms ?? 0}).`,
    );
  };

  app.event('app_uninstalled', async ({ body, context }) => {
    forget(context.teamId ?? body.team_id, context.enterpriseId, 'app_uninstalled');
  });

  app.event('tokens_revoked', async ({ event, body, context }) => {
    // Only the bot token matters: user tokens are not used by Worklink.
    if (!event.tokens.bot?.length) return;
    forget(context.teamId ?? body.team_id, context.enterpriseId, 'tokens_revoked');
  });
}
