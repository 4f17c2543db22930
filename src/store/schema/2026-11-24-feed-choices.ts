/**
 * Each channel feed chooses what it hears (`/work feed on [created] [done] [comments]
 * [assigned] [changes] [priority:high+] [group:…] [assignee:@…] [label:…]`): the kinds of
 * activity, a comma-separated list (default: created, done, comments — also for feeds made
 * before), and the filters as a JSON object (src/store/tables/channel-feeds/, FeedFilters).
 */
import type { SchemaChange } from './schema-change.js';

export const change: SchemaChange = {
  id: '2026-11-24-feed-choices',
  sqlite: `
    ALTER TABLE channel_feeds ADD COLUMN events TEXT NOT NULL DEFAULT 'created,done,comments';
    ALTER TABLE channel_feeds ADD COLUMN filters TEXT NOT NULL DEFAULT '{}';`,
  pg: `
    ALTER TABLE channel_feeds
      ADD COLUMN events TEXT NOT NULL DEFAULT 'created,done,comments',
      ADD COLUMN filters TEXT NOT NULL DEFAULT '{}';`,
};
