/**
 * `/work add … @bob <@U123>` → service user ids. A Slack mention is matched by the Slack
 * user's e-mail (users.info) against the service's users (case-insensitive); a typed
 * `@handle` by e-mail or name. Anyone who cannot be matched stops the create with one
 * sentence naming them.
 */

import { errMessage } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import type { Assignee } from '../parse/quick-add.js';
import { userByEmail, userName, usersForHandle, workspaceUsers } from '../people/service-users.js';

export type AssigneeResolution = { ok: true; ids: string[] } | { ok: false; error: string };

export async function resolveAssignees(
  ctx: WorkContext,
  assignees: readonly Assignee[],
): Promise<AssigneeResolution> {
  if (assignees.length === 0) return { ok: true, ids: [] };
  const users = await workspaceUsers(ctx);
  const workspace = `*${esc(ctx.connection?.workspaceName ?? 'the work-management workspace')}*`;
  const ids: string[] = [];
  for (const a of assignees) {
    if ('slackUserId' in a) {
      const mention = `<@${a.slackUserId}>`;
      let email: string | undefined;
      try {
        email = (await ctx.deps.users.get(ctx.slack, ctx.teamId, a.slackUserId)).email;
      } catch (e) {
        ctx.logger.debug(`users.info for ${a.slackUserId} failed: ${errMessage(e)}`);
        return {
          ok: false,
          error: `Could not look up ${mention} in Slack, so nothing was created. Please try again.`,
        };
      }
      if (!email) {
        return {
          ok: false,
          error: `${mention} has no e-mail address Worklink can see, so they cannot be matched to a user of ${workspace}. Nothing was created.`,
        };
      }
      const user = userByEmail(users, email);
      if (!user) {
        return {
          ok: false,
          error: `${mention} (${esc(email)}) is not a user of ${workspace}, so nothing was created.`,
        };
      }
      ids.push(user.id);
    } else {
      const found = usersForHandle(users, a.handle);
      const typed = `@${esc(a.handle)}`;
      if (found.length === 0) {
        return {
          ok: false,
          error: `No user of ${workspace} matches ${typed}, so nothing was created. Mention a Slack user, or type their e-mail (like @bob@example.com).`,
        };
      }
      if (found.length > 1) {
        const names = found.map((u) => esc(userName(u))).join(', ');
        return {
          ok: false,
          error: `${typed} matches more than one person (${names}); type their e-mail instead. Nothing was created.`,
        };
      }
      ids.push(found[0]!.id);
    }
  }
  return { ok: true, ids: [...new Set(ids)] };
}
