// conversations.history as Slack pages it: newest first, `oldest`/`latest` bounds compared
// exactly (timestamps as whole microseconds), `limit` per page and `next_ts:` cursors.

import { messageObject } from './slack-objects.js';
import type { SandboxState } from './state.js';
import { bool, fail, str } from './web-api-args.js';
import type { Args } from './web-api-scripts.js';

/** "1712345678.000123" as a number of microseconds, exactly (a double would round). */
function tsMicros(ts: string): bigint | undefined {
  const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(ts.trim());
  if (!m) return undefined;
  return BigInt(m[1]) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/**
 * The channel's top-level messages, newest first, between `oldest` and `latest`, `limit` per
 * page. Ephemeral messages never show; message metadata only with include_all_metadata, as in
 * Slack.
 */
export function conversationHistory(
  s: SandboxState,
  channelId: string,
  args: Args,
): Record<string, unknown> {
  const limitText = str(args, 'limit');
  const limit = limitText === undefined ? 100 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 0) fail('invalid_limit');
  const pageSize = limit === 0 ? 100 : Math.min(limit, 999);
  const bound = (key: string): bigint | undefined => {
    const v = str(args, key);
    if (v === undefined || v === '') return undefined;
    return tsMicros(v) ?? fail(`invalid_ts_${key}`);
  };
  const oldest = bound('oldest');
  let latest = bound('latest');
  const inclusive = bool(args, 'inclusive');
  const cursor = str(args, 'cursor');
  if (cursor) {
    const decoded = /^next_ts:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
    if (!decoded) fail('invalid_cursor');
    latest = BigInt(decoded[1]);
  }
  const withMetadata = bool(args, 'include_all_metadata');
  const all = (s.messages.get(channelId) ?? [])
    .filter((m) => m.ephemeralTo === undefined && (!m.threadTs || m.threadTs === m.ts))
    .map((m) => ({ m, at: tsMicros(m.ts) ?? 0n }))
    .filter(({ at }) => {
      if (oldest !== undefined && (inclusive ? at < oldest : at <= oldest)) return false;
      // A cursor continues strictly below the last message returned.
      if (latest !== undefined && (inclusive && !cursor ? at > latest : at >= latest)) {
        return false;
      }
      return true;
    })
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const page = all.slice(0, pageSize);
  const hasMore = all.length > page.length;
  const last = page.at(-1);
  return {
    messages: page.map(({ m }) => {
      const { metadata, ...rest } = messageObject(s, m);
      return withMetadata && metadata !== undefined ? { ...rest, metadata } : rest;
    }),
    has_more: hasMore,
    pin_count: 0,
    channel_actions_ts: null,
    channel_actions_count: 0,
    response_metadata: {
      next_cursor: hasMore && last ? Buffer.from(`next_ts:${last.at}`).toString('base64') : '',
    },
  };
}
