/**
 * Who a Slack person is in the service, in this order: the user their own key acts as
 * (`/work connect me`), else the e-mail an admin linked to them (`/work link`), else their
 * Slack e-mail matched against the service's users. Undefined when none finds one (or Slack
 * or the service cannot say right now: who someone is never fails a request).
 */
import { errMessage } from '../../error-message.js';
import type { WorkContext } from './work-context.js';

export async function serviceUserIdOf(
  ctx: WorkContext,
  slackUserId: string,
): Promise<string | undefined> {
  const { store, teamId } = ctx;
  const own = await store.personalKeys.info(teamId, slackUserId);
  if (own) return own.serviceUserId;
  try {
    const linked = (await store.userLinks.bySlackUser(teamId, slackUserId)).map(
      (l) => l.serviceEmail,
    );
    const emails = linked.length
      ? linked
      : [(await ctx.deps.users.get(ctx.slack, teamId, slackUserId)).email ?? ''];
    const wanted = new Set(emails.filter(Boolean).map((e) => e.trim().toLowerCase()));
    if (wanted.size === 0) return undefined;
    const users = await ctx.deps.directory.usersOf(teamId, ctx.work);
    for (const u of users.values()) {
      if (u.email && wanted.has(u.email.trim().toLowerCase())) return u.id;
    }
  } catch (e) {
    ctx.logger.debug(`Who ${slackUserId} is in the service is unknown now: ${errMessage(e)}`);
  }
  return undefined;
}
