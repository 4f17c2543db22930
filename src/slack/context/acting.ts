/**
 * Who a change is made as: the seam between a request and the service write.
 *
 *   const by = await requireActing(ctx);  // answers a refusal itself
 *   if (!by) return;
 *   await by.work.updateTask(...);         // the person's own key, else the workspace key
 *
 * Every write made for a person goes through `actingFor` (the task-change owner, project
 * changes, forms, shortcuts, thread sync, workflow steps). Reads may keep using `ctx.work`.
 * Today every person acts through the workspace key, on behalf (comments carry the
 * attribution line); personal keys and the admin's policy (the identity issue) decide here.
 */
import type { WorkClient } from '../../workapi/client.js';
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

/** How `ctx`'s person may write, or the sentence saying why they may not. */
export async function actingFor(ctx: WorkContext): Promise<ActingOrRefusal> {
  return { teamId: ctx.teamId, slackUserId: ctx.userId, work: ctx.work, onBehalf: true };
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
