/**
 * The first line of `/work me`: which way the person acts in the service — their own key
 * (as which service user), the workspace's connection (signed with their name), or only
 * reading (a guest, someone of another organisation, or the read-only policy).
 */

import type { PersonalKeyInfo } from '../../store/index.js';
import { isForeign } from '../context/slack-users.js';
import type { WorkContext } from '../context/work-context.js';
import { formatMoment } from '../format/date-text.js';
import { esc } from '../format/text.js';
import { serviceUserName } from './own-key.js';

export async function howYouAct(ctx: WorkContext): Promise<string> {
  const ws = esc(ctx.connection?.workspaceName ?? 'the work-management workspace');
  const own = await revived(ctx, await ctx.store.personalKeys.info(ctx.teamId, ctx.userId));
  const tz = await ctx.userTimeZone();
  if (own && !own.failingSince) {
    const who = esc(await serviceUserName(ctx, own.serviceUserId));
    return `You act as yourself: your own API key acts as *${who}* in *${ws}* (connected ${formatMoment(own.connectedAt, tz)}). \`/work disconnect me\` forgets it.`;
  }
  const failing = own?.failingSince
    ? `:warning: The service stopped accepting your own API key (${formatMoment(own.failingSince, tz)}); connect a new one with \`/work connect me\`. Until then: `
    : '';
  const connect = 'Connect your own key with `/work connect me` to act as yourself.';
  // Without users.info the line says what the policy allows members.
  const user = await ctx.deps.users.get(ctx.slack, ctx.teamId, ctx.userId).catch(() => undefined);
  if (user && isForeign(user, ctx.teamId, ctx.enterpriseId)) {
    return `${failing}You are from another Slack organisation: you can look things up, but Worklink changes nothing for you through this workspace’s connection. ${connect}`;
  }
  if (user?.isGuest) {
    return `${failing}As a guest you can look things up, but Worklink changes nothing for you through this workspace’s connection. ${connect}`;
  }
  const settings = await ctx.store.teamSettings.get(ctx.teamId);
  if (settings.members === 'read-only') {
    return `${failing}You can look things up; changing things needs your own API key here (an admin’s setting). ${connect}`;
  }
  return `${failing}You act through this workspace’s connection to *${ws}*: the service shows its key’s owner as the author, and your comments are signed with your name. ${connect}`;
}

/**
 * A key marked failing is tried once more (verify): a service that accepts it again (it was a
 * passing outage, or the key was re-enabled) puts it back in use, failure cleared.
 */
async function revived(ctx: WorkContext, own: PersonalKeyInfo | undefined) {
  if (!own?.failingSince) return own;
  try {
    const key = await ctx.store.personalKeys.get(ctx.teamId, ctx.userId);
    if (!key) return own;
    const v = await ctx.deps.workClients.adHoc(key.apiKey).verify();
    if (v.createdBy !== key.serviceUserId || v.workspaceId !== ctx.connection?.workspaceId)
      return own;
    await ctx.store.personalKeys.save({ ...key, connectedAt: key.connectedAt });
    ctx.logger.info(`Team ${ctx.teamId}: ${ctx.userId}'s own key is accepted again.`);
    return { ...own, failingSince: undefined, failure: undefined };
  } catch {
    // Still refused (or unreadable): it stays failing.
    return own;
  }
}
