/**
 * Comments posted from Slack act as the API key's owner, so a comment by anyone else names
 * its Slack author in the content: "— via Slack by Bob Brown".
 */
import type { WorkContext } from '../../context/work-context.js';
import { sameEmail, workspaceUsers } from '../../people/service-users.js';

/** `text`, plus "— via Slack by <name>" unless the Slack user is the key's owner. */
export async function authoredContent(ctx: WorkContext, text: string): Promise<string> {
  const body = text.trim();
  const [slackUser, owner] = await Promise.all([
    ctx.deps.users.get(ctx.slack, ctx.teamId, ctx.userId).catch(() => undefined),
    keyOwnerEmail(ctx).catch(() => undefined),
  ]);
  if (sameEmail(owner, slackUser?.email)) return body;
  const who = slackUser?.name?.trim() || `Slack user ${ctx.userId}`;
  return `${body}\n\n— via Slack by ${who}`;
}

/** The e-mail of the service user the key acts as (verify().createdBy, via listUsers). */
async function keyOwnerEmail(ctx: WorkContext): Promise<string | undefined> {
  const ownerId = ctx.connection?.keyOwnerId ?? (await ctx.work.verify()).createdBy;
  if (!ownerId) return undefined;
  const users = await workspaceUsers(ctx);
  return users.find((u) => u.id === ownerId)?.email;
}
