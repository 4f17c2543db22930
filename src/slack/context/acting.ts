/**
 * Who a change is made as: the seam between a request and the service write.
 *
 *   const by = await requireActing(ctx);  // answers a refusal itself
 *   if (!by) return;
 *   await by.work.updateTask(...);         // the person's own key, else the workspace key
 *
 * Every write made for a person goes through `actingFor` (the task-change owner, project
 * changes, forms, shortcuts, thread sync, workflow steps). Reads may keep using `ctx.work`.
 *
 * - A person with their own key (`/work connect me`) writes with it: the service records
 *   them as the author, and nothing is appended to their comments (onBehalf false).
 * - Else the workspace key acts for them, as the admin's policy allows (`/work settings`):
 *   attributed (onBehalf true: comments are signed), or not at all (read-only).
 * - Guests and people of another organisation (Slack Connect) never act through the
 *   workspace key; with a key of their own they may.
 * - A personal key the service refuses is marked failing (personal-client.ts) and not used.
 * Who they are in the service: their own key's user, else an admin's link, else the e-mail.
 */
import { errMessage } from '../../error-message.js';
import type { WorkClient } from '../../workapi/client.js';
import { esc } from '../format/text.js';
import { guardPersonalClient } from './personal-client.js';
import { serviceUserIdOf } from './service-user.js';
import { isForeign, type SlackUser } from './slack-users.js';
import type { WorkContext } from './work-context.js';

export interface Acting {
  teamId: string;
  /** The Slack person acting; absent for automation with no person behind it. */
  slackUserId?: string;
  /** Their service user when known (own key's createdBy, an admin's link, the e-mail match). */
  serviceUserId?: string;
  /** The client to write with: the person's own key, else the workspace key. */
  work: WorkClient;
  /** True when writing through the workspace key for someone else: comments are signed. */
  onBehalf: boolean;
}

export type ActingOrRefusal = Acting | { refused: string };

/** How to get one's own key connected, for the refusals. */
export function connectOwnKeyHint(ctx: WorkContext): string {
  const ws = esc(ctx.connection?.workspaceName ?? 'the work-management workspace');
  return `If you have an account in *${ws}*, connect your own API key with \`/work connect me <apiKey>\` (or “Connect your account” on Worklink’s Home tab); you can make one in your account settings there.`;
}

/** How `ctx`'s person may write, or the sentence saying why they may not. */
export async function actingFor(ctx: WorkContext): Promise<ActingOrRefusal> {
  const base = { teamId: ctx.teamId, slackUserId: ctx.userId };
  // Throws NotConnectedError without a workspace connection, as every write did before.
  const workspace = ctx.work;
  // Automation with no person behind it acts through the workspace's connection.
  if (!ctx.userId) return { teamId: ctx.teamId, work: workspace, onBehalf: true };
  const own = await ownKey(ctx);
  if (own && !own.failingSince && own.apiKey) {
    const client = ctx.deps.workClients.forPerson(ctx.teamId, ctx.userId, own.apiKey);
    return {
      ...base,
      serviceUserId: own.serviceUserId,
      work: guardPersonalClient(ctx, client),
      onBehalf: false,
    };
  }
  let user: SlackUser;
  try {
    user = await ctx.deps.users.get(ctx.slack, ctx.teamId, ctx.userId);
  } catch (e) {
    return {
      refused: `Worklink could not check who you are in Slack (${errMessage(e)}), so nothing was changed. Please try again.`,
    };
  }
  if (isForeign(user, ctx.teamId, ctx.enterpriseId)) {
    return {
      refused: `You are from another Slack organisation, so Worklink does not act for you through this workspace’s connection, and nothing was changed. ${connectOwnKeyHint(ctx)}`,
    };
  }
  if (user.isGuest) {
    return {
      refused: `Guests of this Slack workspace can look things up with Worklink but not change them through the workspace’s connection, so nothing was changed. ${connectOwnKeyHint(ctx)}`,
    };
  }
  const settings = await ctx.store.teamSettings.get(ctx.teamId);
  if (settings.members === 'read-only') {
    return {
      refused: `In this workspace, changing things with Worklink needs your own API key (an admin’s setting), so nothing was changed. ${connectOwnKeyHint(ctx)}`,
    };
  }
  const serviceUserId = own?.serviceUserId ?? (await serviceUserIdOf(ctx, ctx.userId));
  return { ...base, ...(serviceUserId ? { serviceUserId } : {}), work: workspace, onBehalf: true };
}

/** `actingFor`, answering a refusal to the person itself (then undefined). */
export async function requireActing(ctx: WorkContext): Promise<Acting | undefined> {
  const by = await actingFor(ctx);
  if ('refused' in by) {
    await ctx.reply(by.refused);
    return undefined;
  }
  return by;
}

/** The person's own key; one that cannot be decrypted counts as none (and is logged). */
async function ownKey(ctx: WorkContext) {
  try {
    return await ctx.store.personalKeys.get(ctx.teamId, ctx.userId);
  } catch (e) {
    ctx.logger.warn(`The own key of ${ctx.userId} cannot be read: ${errMessage(e)}`);
    const info = await ctx.store.personalKeys.info(ctx.teamId, ctx.userId);
    return info ? { ...info, apiKey: '' } : undefined;
  }
}
