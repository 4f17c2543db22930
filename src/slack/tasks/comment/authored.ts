/**
 * Comments posted from Slack act as the API key's owner in the service, so every comment
 * made through Worklink ends with who wrote it in Slack, in one fixed form:
 *
 *   <text>
 *
 *   — Alice Adams (via Slack)
 *
 * A comment taken from a message ("Add to task as comment") names the message's author;
 * when someone else ran the shortcut, they are named too:
 * "— Bob Brown (via Slack, added by Alice Adams)". Names are Slack's real names (else the
 * display name, else the user id); a message from an app is named by the app's name.
 *
 * Only comments written on behalf (`by.onBehalf`: through the workspace key) carry the line;
 * a person writing with their own key is the comment's author in the service already.
 */
import type { Acting } from '../../context/acting.js';
import { orDebug } from '../../context/error-replies.js';
import type { WorkContext } from '../../context/work-context.js';

/** Who wrote a message a comment is taken from: a Slack user id, or a bot's name. */
export interface MessageAuthor {
  userId?: string;
  botName?: string;
}

/** `text` with its attribution line when written on behalf (see above). */
export async function authoredContent(
  ctx: Pick<WorkContext, 'deps' | 'slack' | 'logger'>,
  by: Acting,
  text: string,
  author?: MessageAuthor,
): Promise<string> {
  const body = text.trim();
  const self = by.slackUserId;
  // Written as the person (their own key): the text as they wrote it, unless it is someone
  // else's message (that author is still named).
  if (!by.onBehalf && (!author || (author.userId !== undefined && author.userId === self))) {
    return body;
  }
  const runner = self ? await slackName(ctx, by.teamId, self) : 'Worklink';
  const writer = !author
    ? runner
    : author.userId
      ? author.userId === self
        ? runner
        : await slackName(ctx, by.teamId, author.userId)
      : author.botName?.trim() || 'an app';
  const addedBy = author && writer !== runner ? `, added by ${runner}` : '';
  return `${body}\n\n${attribution(writer, addedBy)}`;
}

/** The attribution line itself: "— Alice Adams (via Slack)". */
export function attribution(name: string, extra = ''): string {
  return `— ${name} (via Slack${extra})`;
}

/** A Slack user's name for the service's readers; the id when Slack cannot say. */
async function slackName(
  ctx: Pick<WorkContext, 'deps' | 'slack' | 'logger'>,
  teamId: string,
  userId: string,
): Promise<string> {
  const user = await ctx.deps.users
    .get(ctx.slack, teamId, userId)
    .catch(orDebug(ctx.logger, `users.info for ${userId}`, undefined));
  return user?.name?.trim() || `Slack user ${userId}`;
}
