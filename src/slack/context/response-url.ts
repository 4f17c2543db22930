/** Replies through a payload's response_url (slash commands, buttons, shortcuts). */
import type { KnownBlock } from '@slack/types';

/** A reply to the person who acted. Ephemeral unless `response_type: 'in_channel'`. */
export interface ReplyMessage {
  text: string;
  blocks?: KnownBlock[];
  response_type?: 'ephemeral' | 'in_channel';
  replace_original?: boolean;
}

export async function postToResponseUrl(url: string, message: ReplyMessage): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`response_url answered HTTP ${res.status}`);
}
