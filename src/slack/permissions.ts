/**
 * Who may connect or disconnect Worklink for a Slack workspace: its admins and owners
 * (users.info is_admin / is_owner / is_primary_owner) and, in OAuth mode, the person who
 * installed the app there. Everyone else gets a polite refusal naming who can.
 */
import { errMessage, type WorkContext } from './context.js';

export type Permission = { allowed: true } | { allowed: false; message: string };

export async function canManageConnection(ctx: WorkContext, verb = 'connect'): Promise<Permission> {
  const { deps } = ctx;
  if (deps.config.slack.mode === 'oauth') {
    const installer = deps.store.installations.installerUserId(ctx.teamId, ctx.enterpriseId);
    if (installer && installer === ctx.userId) return { allowed: true };
  }
  try {
    const user = await deps.users.get(ctx.slack, ctx.teamId, ctx.userId);
    if (user.isAdmin || user.isOwner) return { allowed: true };
  } catch (e) {
    return {
      allowed: false,
      message: `Worklink could not check your Slack role (${errMessage(e)}), so nothing was changed. Please try again.`,
    };
  }
  const installer =
    deps.config.slack.mode === 'oauth'
      ? deps.store.installations.installerUserId(ctx.teamId, ctx.enterpriseId)
      : undefined;
  const who = installer ? `, or <@${installer}> who installed Worklink,` : '';
  return {
    allowed: false,
    message: `Sorry, only Slack workspace admins and owners${who} can ${verb} Worklink. Please ask one of them to run \`/work ${verb}\`.`,
  };
}
