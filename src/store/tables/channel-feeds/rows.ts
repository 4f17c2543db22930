/** channel-feeds: its rows as both engines store them, and how they read as the contract's types. */
import { z } from 'zod';
import {
  type ChannelFeed,
  DEFAULT_FEED_EVENTS,
  FEED_EVENTS,
  type FeedChoice,
  type FeedEvent,
  type FeedFilters,
} from './contract.js';

/** A channel_feeds row as stored (both engines read it the same way). */
export interface FeedRow {
  team_id: string;
  channel_id: string;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  sync: number | boolean;
  enabled_by: string;
  enabled_at: number;
  /** Comma-separated FeedEvents. */
  events: string;
  /** FeedFilters as JSON. */
  filters: string;
}

export const fromRow = (r: FeedRow): ChannelFeed => ({
  teamId: r.team_id,
  channelId: r.channel_id,
  sync: r.sync === 1 || r.sync === true,
  enabledBy: r.enabled_by,
  enabledAt: r.enabled_at,
  events: readEvents(r.events),
  filters: readFilters(r.filters),
});

/** The stored columns of a choice (undefined: the defaults). */
export function choiceColumns(choice: FeedChoice | undefined): { events: string; filters: string } {
  return {
    events: (choice?.events ?? DEFAULT_FEED_EVENTS).join(','),
    filters: JSON.stringify(choice?.filters ?? {}),
  };
}

function readEvents(text: string): FeedEvent[] {
  const listed = text.split(',');
  return FEED_EVENTS.filter((e) => listed.includes(e));
}

const Filters = z.object({
  priority: z.object({ level: z.number().int(), orMore: z.boolean() }).optional().catch(undefined),
  group: z.string().optional().catch(undefined),
  label: z.string().optional().catch(undefined),
  assignee: z
    .object({ serviceUserId: z.string(), slackUserId: z.string().optional() })
    .optional()
    .catch(undefined),
});

/** Only this module writes the column; anything unreadable is read as no filter. */
function readFilters(text: string): FeedFilters {
  try {
    const parsed = Filters.safeParse(JSON.parse(text));
    return parsed.success
      ? Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined))
      : {};
  } catch {
    return {};
  }
}
