/**
 * Who may change what Worklink keeps for a Slack workspace. Connecting and disconnecting:
 * its admins and owners (users.info is_admin / is_owner / is_primary_owner) and, in OAuth
 * mode, the person who installed the app there. Linking accounts: admins and owners.
 * Linking channels and turning feeds on or off: as the admin's setting says (default admins).
 * Everyone else gets a polite refusal naming who can.
 */
import { errMessage } from './error-replies.js';
import { isForeign } from './slack-users.js';
import type { WorkContext } from './work-context.js';

export type Permission = { allowed: true } | { allowed: false; message: string };

/**
 * Admins and owners are allowed; a failed role lookup is refused with its own sentence, and
 * anyone else is refused with `refusal`.
 */
export async function requireAdmin(ctx: WorkContext, refusal: string): Promise<Permission> {
  try {
    const user = await ctx.deps.users.get(ctx.slack, ctx.teamId, ctx.userId);
    if (user.isAdmin || user.isOwner) return { allowed: true };
  } catch (e) {
    return {
      allowed: false,
      message: `Worklink could not check your Slack role (${errMessage(e)}), so nothing was changed. Please try again.`,
    };
  }
  return { allowed: false, message: refusal };
}

export async function canManageConnection(ctx: WorkContext, verb = 'connect'): Promise<Permission> {
  const { deps } = ctx;
  const installer =
    deps.config.slack.mode === 'oauth'
      ? await deps.store.installations.installerUserId(ctx.teamId, ctx.enterpriseId)
      : undefined;
  if (installer && installer === ctx.userId) return { allowed: true };
  const who = installer ? `, or <@${installer}> who installed Worklink,` : '';
  return requireAdmin(
    ctx,
    `Sorry, only Slack workspace admins and owners${who} can ${verb} Worklink. Please ask one of them to run \`/work ${verb}\`.`,
  );
}

/**
 * Linking a channel to a project and turning its feed on or off: admins and owners, or
 * everyone when an admin said so (`/work settings links everyone`). Guests and people of
 * another organisation never, whatever the setting.
 */
export async function canChangeChannelLinks(ctx: WorkContext): Promise<Permission> {
  const settings = await ctx.store.teamSettings.get(ctx.teamId);
  if (settings.links === 'everyone') {
    try {
      const user = await ctx.deps.users.get(ctx.slack, ctx.teamId, ctx.userId);
      if (!user.isGuest && !isForeign(user, ctx.teamId, ctx.enterpriseId)) return { allowed: true };
    } catch (e) {
      return {
        allowed: false,
        message: `Worklink could not check your Slack role (${errMessage(e)}), so nothing was changed. Please try again.`,
      };
    }
    return {
      allowed: false,
      message:
        'Sorry, guests and people of other organisations cannot change which project a channel is linked to or its feed. Nothing was changed.',
    };
  }
  return requireAdmin(
    ctx,
    'Sorry, in this workspace only Slack admins and owners can link channels to projects and turn feeds on or off (an admin can let everyone with `/work settings links everyone`). Nothing was changed.',
  );
}
