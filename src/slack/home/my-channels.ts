/**
 * The channels a person is in (users.conversations, public and private), so App Home lists
 * only the channel links of channels they can see: a private channel's project is not shown
 * to people outside it. Needs the bot scopes channels:read and groups:read.
 */
import type { WorkContext } from '../context/work-context.js';

/** At most this many pages of 1000 channels (a person in more sees the first ones). */
const MAX_PAGES = 5;

export async function channelsOf(ctx: WorkContext, userId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await ctx.slack.users.conversations({
      user: userId,
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    for (const c of res.channels ?? []) if (c.id) ids.add(c.id);
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  return ids;
}
