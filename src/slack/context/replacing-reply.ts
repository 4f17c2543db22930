/**
 * A pick list's answer takes the pick list's place: the same context, its `reply` replacing
 * the message the button was pressed on (response_url, `replace_original`). Without a
 * response_url (a form opened by Edit) the context is returned as it is.
 */
import { fitMessage } from '../ui/limits.js';
import type { ReplyMessage } from './response-url.js';
import type { WorkContext } from './work-context.js';

export function replacingReply(
  ctx: WorkContext,
  respond:
    | ((message: ReplyMessage & { replace_original: boolean }) => Promise<unknown>)
    | undefined,
): WorkContext {
  if (!respond) return ctx;
  // Everything else is the context's own (its clients are built lazily on it).
  const replacing: WorkContext = Object.create(ctx);
  replacing.reply = async (message: ReplyMessage | string) => {
    const m = fitMessage(typeof message === 'string' ? { text: message } : message);
    await respond({ ...m, response_type: 'ephemeral', replace_original: true });
  };
  return replacing;
}
