/** Failures turned into one sentence for the person who acted (see ui/error-text.ts). */

import type { Logger } from '@slack/bolt';
import { errMessage } from '../../error-message.js';
import { DecryptError } from '../../store/index.js';
import { CANNOT_SAVE, isStorageFault, reportStorageFault } from '../../store/storage-fault.js';
import {
  APOLOGY,
  describeWorkError,
  type ErrorWording,
  KEY_UNREADABLE,
  NOT_CONNECTED,
} from '../ui/error-text.js';
import { NotConnectedError, type WorkContext } from './work-context.js';

/**
 * Runs a handler body and turns any failure into a reply; never throws. Use it in every
 * action/view/shortcut listener after ack (the /work router already wraps subcommands):
 *   await runSafely(ctx, { action: 'mark the task complete', id }, async () => { … });
 */
export async function runSafely(
  ctx: WorkContext,
  wording: ErrorWording,
  fn: () => Promise<void>,
): Promise<void> {
  try {
    await fn();
  } catch (err) {
    await replyError(ctx, err, wording);
  }
}

/** Replies with the sentence for `err` (see describeWorkError); logs unexpected ones. */
export async function replyError(
  ctx: WorkContext,
  err: unknown,
  wording: ErrorWording,
): Promise<void> {
  const text = errorText(ctx, err, wording);
  try {
    await ctx.reply(text);
  } catch (replyErr) {
    ctx.logger.error(`Could not deliver an error reply to ${ctx.userId}: ${errMessage(replyErr)}`);
  }
}

/** The sentence for `err`; unexpected errors are logged (message + stack, no secrets). */
export function errorText(ctx: WorkContext, err: unknown, wording: ErrorWording): string {
  if (err instanceof NotConnectedError) return NOT_CONNECTED;
  if (err instanceof DecryptError) return KEY_UNREADABLE;
  if (isStorageFault(err)) {
    reportStorageFault(ctx.logger, err);
    return CANNOT_SAVE;
  }
  const text = describeWorkError(err, wording);
  if (text === APOLOGY) {
    ctx.logger.error(`Unexpected failure while trying to ${wording.action}:`, err);
  }
  return text;
}

/**
 * For a failure Worklink can do without (a nicety, a fallback): logged at debug, then `value`.
 *   const users = await workspaceUsers(ctx).catch(orDebug(ctx.logger, 'Service users', []));
 */
export function orDebug<T>(
  logger: Pick<Logger, 'debug'> | undefined,
  what: string,
  value: T,
): (e: unknown) => T {
  return (e) => {
    logger?.debug(`${what} failed; going on without: ${errMessage(e)}`);
    return value;
  };
}

// errMessage lives in src/error-message.ts (the service and the sandbox use it too).
export { errMessage } from '../../error-message.js';
