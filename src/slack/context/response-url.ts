/** Replies through a payload's response_url (slash commands, buttons, shortcuts). */
import type { ReplyMessage } from './work-context.js';

export async function postToResponseUrl(url: string, message: ReplyMessage): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`response_url answered HTTP ${res.status}`);
}
