/**
 * Service users as a channel message names them: a mention ('<@U…>') when the person has a
 * Slack account (by `/work link` or e-mail), else their service name, unescaped (the message
 * escapes it: feed-text.ts `shownName`). A failed look-up gives the id rather than failing
 * the message.
 */

import type { Actor } from '../../activity/hub.js';
import { orDebug } from '../context/error-replies.js';
import type { TeamReader } from '../context/team-scope.js';
import { slackIdsFor, userName, workspaceUsers } from '../people/service-users.js';
import { actorLabel } from './feed-text.js';

export async function peopleLabels(ctx: TeamReader, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const users = await workspaceUsers(ctx).catch(orDebug(ctx.logger, 'Service users', []));
  const people = ids.map((id) => users.find((u) => u.id === id) ?? { id });
  const slackIds = await slackIdsFor(ctx, people).catch(
    orDebug(ctx.logger, 'Slack users of service users', new Map<string, string>()),
  );
  return people.map((p) => {
    const slackId = slackIds.get(p.id);
    return slackId ? `<@${slackId}>` : userName(p);
  });
}

/**
 * Who acted: a Slack mention — also for a service user who has a Slack account (a change made
 * in the service by someone here) — else the name given, else the service user's (unescaped).
 */
export async function whoActed(
  ctx: TeamReader,
  actor: Actor | undefined,
): Promise<string | undefined> {
  if (actor?.slackUserId || !actor?.serviceUserId) return actorLabel(actor);
  const [label] = await peopleLabels(ctx, [actor.serviceUserId]);
  return label?.startsWith('<@') ? label : (actor.name ?? label);
}
