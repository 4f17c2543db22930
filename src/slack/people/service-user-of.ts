/**
 * The service user(s) a Slack user is: the e-mails an admin linked to them (`/work link`),
 * else their Slack e-mail, matched against the service's users.
 */
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { sameEmail, workspaceUsers } from './service-users.js';

export type ServiceIdentity =
  | { ok: true; ids: string[]; name: string }
  | { ok: false; problem: string };

export async function serviceUserOf(
  ctx: WorkContext,
  slackUserId: string,
): Promise<ServiceIdentity> {
  const linked = (await ctx.store.userLinks.bySlackUser(ctx.teamId, slackUserId)).map(
    (l) => l.serviceEmail,
  );
  let emails = linked;
  let name: string | undefined;
  if (emails.length === 0) {
    try {
      const user = await ctx.deps.users.get(ctx.slack, ctx.teamId, slackUserId);
      emails = user.email ? [user.email] : [];
      name = user.name;
    } catch (e) {
      ctx.deps.logger.debug(`users.info for ${slackUserId} failed: ${(e as Error).message}`);
      return {
        ok: false,
        problem: `Could not look up <@${slackUserId}> in Slack. Please try again.`,
      };
    }
  }
  const users = await workspaceUsers(ctx);
  const matched = users.filter((u) => emails.some((e) => sameEmail(u.email, e)));
  if (matched.length === 0) {
    const workspace = ctx.connection?.workspaceName ?? 'the work-management workspace';
    return {
      ok: false,
      problem: `<@${slackUserId}> has no account in *${esc(workspace)}* that Worklink can match (by e-mail or \`/work link\`).`,
    };
  }
  return { ok: true, ids: matched.map((u) => u.id), name: matched[0]?.name ?? name ?? slackUserId };
}
