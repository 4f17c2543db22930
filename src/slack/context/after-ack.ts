/**
 * The frame of button and shortcut listeners: ack first (nothing before it), then the context
 * and the connection check, then `fn`; anything `fn` throws becomes one sentence to the
 * person who acted, so no click fails silently.
 */

import type { WorklinkDeps } from './deps.js';
import { errMessage, replyError } from './error-replies.js';
import {
  type BoltArgsLike,
  requireConnection,
  type WorkContext,
  workContext,
} from './work-context.js';

export function afterAck<A extends BoltArgsLike & { ack(): Promise<void> }>(
  deps: WorklinkDeps,
  what: string,
  fn: (ctx: WorkContext, args: A) => Promise<void>,
): (args: A) => Promise<void> {
  return async (args) => {
    await args.ack();
    let ctx: WorkContext | undefined;
    try {
      ctx = await workContext(deps, args);
      if (!(await requireConnection(ctx))) return;
      await fn(ctx, args);
    } catch (e) {
      if (ctx) await replyError(ctx, e, { action: `handle that ${what}` });
      else deps.logger.error(`A ${what} failed before it could reply: ${errMessage(e)}`);
    }
  };
}
