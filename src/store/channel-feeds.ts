/**
 * Channel feeds (`/work feed on|off`): channel_feeds says which channels post the new tasks of
 * their linked project (and whether replies in a card's thread become comments: `sync`);
 * feed_posts records what each feed posted for each task — its card (the thread later activity
 * goes to), or its place in a burst summary. A task is posted to a channel at most once: the
 * row is claimed first, so the Slack path, the service's events and the watcher never post
 * the same task twice. This module is SQLite's (synchronous, see sync.ts);
 * pg/channel-feeds.ts is PostgreSQL's.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Sync } from './sqlite/async-over-sync.js';

/** What a feed can hear: new tasks, completion and reopening, comments, assignment, other changes. */
export const FEED_EVENTS = ['created', 'done', 'comments', 'assigned', 'changes'] as const;
export type FeedEvent = (typeof FEED_EVENTS)[number];
export const DEFAULT_FEED_EVENTS: readonly FeedEvent[] = ['created', 'done', 'comments'];

/** Which tasks a feed hears of; every filter given must match. */
export interface FeedFilters {
  /**
   * 1 urgent, 2 high, 3 medium, 4 low; `orMore`: this or more urgent (`priority:high+`). A
   * task with no priority never matches.
   */
  priority?: { level: number; orMore: boolean };
  /** The task's group, by name (case folded). */
  group?: string;
  /** One of the task's assignees. */
  assignee?: { serviceUserId: string; slackUserId?: string };
  /** One of the task's labels, by name (case folded). */
  label?: string;
}

/** A feed's choice: what it hears, of which tasks. */
export interface FeedChoice {
  events: FeedEvent[];
  filters: FeedFilters;
}

export interface ChannelFeed extends FeedChoice {
  teamId: string;
  channelId: string;
  /** Replies in a feed card's thread become comments on the task. */
  sync: boolean;
  enabledBy: string;
  enabledAt: number;
}

/** How a feed shows a new task: its own card, or a line in the burst's summary. */
export type FeedClaim =
  /** The task is already in this feed (another path got there first). */
  | { kind: 'taken' }
  | { kind: 'card' }
  /**
   * The summary to edit (`summaryTs`), or none yet (post one); `taskIds`: every task the
   * summary lists, this one included, oldest first.
   */
  | { kind: 'summary'; summaryTs?: string; taskIds: string[] };

/** The burst rule: more than `cards` new tasks within `windowMs` are summarised. */
export interface BurstRule {
  windowMs: number;
  cards: number;
}

export interface FeedCard {
  channelId: string;
  ts: string;
  sync: boolean;
}

export interface ChannelFeedsStore {
  get(teamId: string, channelId: string): Promise<ChannelFeed | undefined>;
  /**
   * Turns the channel's feed on (or changes `sync`); with `choice`, also what it hears (else
   * a new feed hears the defaults and an existing one keeps its choice).
   */
  enable(
    teamId: string,
    channelId: string,
    sync: boolean,
    by: string,
    now?: number,
    choice?: FeedChoice,
  ): Promise<void>;
  /** Turns it off; true when it was on. */
  disable(teamId: string, channelId: string): Promise<boolean>;
  /** The feeds of the channels linked to this project. */
  forProject(teamId: string, projectId: string): Promise<ChannelFeed[]>;
  /** Takes the task's place in the channel's feed, in one unit of work. */
  claim(
    teamId: string,
    channelId: string,
    taskId: string,
    now: number,
    rule: BurstRule,
  ): Promise<FeedClaim>;
  /** The card of a claimed task was posted as `ts`. */
  cardPosted(teamId: string, channelId: string, taskId: string, ts: string): Promise<void>;
  /** The summary listing `taskIds` is the message `ts`. */
  summaryPosted(teamId: string, channelId: string, ts: string, taskIds: string[]): Promise<void>;
  /** Gives a claim back (its card could not be posted). */
  release(teamId: string, channelId: string, taskId: string): Promise<void>;
  /** The feed cards of a task, in channels whose feed is still on. */
  cardsOf(teamId: string, taskId: string): Promise<FeedCard[]>;
  /** The task whose feed card is the message `ts` (its channel's feed on). */
  taskOfCard(
    teamId: string,
    channelId: string,
    ts: string,
  ): Promise<{ taskId: string; sync: boolean } | undefined>;
  deleteTeam(teamId: string): Promise<number>;
}

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

export function channelFeedsStore(db: Database.Database): Sync<ChannelFeedsStore> {
  const select = db.prepare<[string, string], FeedRow>(
    'SELECT * FROM channel_feeds WHERE team_id = ? AND channel_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO channel_feeds (team_id, channel_id, sync, enabled_by, enabled_at, events, filters)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, channel_id) DO UPDATE SET sync = excluded.sync,
       enabled_by = excluded.enabled_by, enabled_at = excluded.enabled_at`,
  );
  const upsertChoice = db.prepare(
    `INSERT INTO channel_feeds (team_id, channel_id, sync, enabled_by, enabled_at, events, filters)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, channel_id) DO UPDATE SET sync = excluded.sync,
       enabled_by = excluded.enabled_by, enabled_at = excluded.enabled_at,
       events = excluded.events, filters = excluded.filters`,
  );
  const remove = db.prepare('DELETE FROM channel_feeds WHERE team_id = ? AND channel_id = ?');
  const byProject = db.prepare<[string, string], FeedRow>(
    `SELECT f.* FROM channel_feeds f
       JOIN channel_projects p ON p.team_id = f.team_id AND p.channel_id = f.channel_id
      WHERE f.team_id = ? AND p.project_id = ? ORDER BY f.enabled_at, f.channel_id`,
  );
  const exists = db.prepare<[string, string, string], { one: number }>(
    'SELECT 1 AS one FROM feed_posts WHERE team_id = ? AND channel_id = ? AND task_id = ?',
  );
  const recent = db.prepare<[string, string, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM feed_posts WHERE team_id = ? AND channel_id = ? AND posted_at > ?',
  );
  // The newest posted summary and when its first task came (a summary gathers one window).
  const lastSummary = db.prepare<[string, string], { ts: string; started: number }>(
    `SELECT ts, MIN(posted_at) AS started FROM feed_posts
      WHERE team_id = ? AND channel_id = ? AND kind = 'summary' AND ts IS NOT NULL
      GROUP BY ts ORDER BY started DESC LIMIT 1`,
  );
  // A summary's tasks: those with its ts, and any whose summary could not be posted yet.
  const summaryTasks = db.prepare<[string, string, string | null, number], { task_id: string }>(
    `SELECT task_id FROM feed_posts
      WHERE team_id = ? AND channel_id = ? AND kind = 'summary'
        AND (ts = ? OR (ts IS NULL AND posted_at > ?))
      ORDER BY posted_at, rowid`,
  );
  const insert = db.prepare(
    `INSERT INTO feed_posts (team_id, channel_id, task_id, kind, posted_at, ts)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const setTs = db.prepare(
    'UPDATE feed_posts SET ts = ? WHERE team_id = ? AND channel_id = ? AND task_id = ?',
  );
  const removePost = db.prepare(
    'DELETE FROM feed_posts WHERE team_id = ? AND channel_id = ? AND task_id = ?',
  );
  const cards = db.prepare<[string, string], { channel_id: string; ts: string; sync: number }>(
    `SELECT p.channel_id, p.ts, f.sync FROM feed_posts p
       JOIN channel_feeds f ON f.team_id = p.team_id AND f.channel_id = p.channel_id
      WHERE p.team_id = ? AND p.task_id = ? AND p.kind = 'card' AND p.ts IS NOT NULL`,
  );
  const ofCard = db.prepare<[string, string, string], { task_id: string; sync: number }>(
    `SELECT p.task_id, f.sync FROM feed_posts p
       JOIN channel_feeds f ON f.team_id = p.team_id AND f.channel_id = p.channel_id
      WHERE p.team_id = ? AND p.channel_id = ? AND p.ts = ? AND p.kind = 'card'`,
  );

  const claim = db.transaction(
    (
      teamId: string,
      channelId: string,
      taskId: string,
      now: number,
      rule: BurstRule,
    ): FeedClaim => {
      if (exists.get(teamId, channelId, taskId)) return { kind: 'taken' };
      const since = now - rule.windowMs;
      if ((recent.get(teamId, channelId, since)?.n ?? 0) < rule.cards) {
        insert.run(teamId, channelId, taskId, 'card', now, null);
        return { kind: 'card' };
      }
      const last = lastSummary.get(teamId, channelId);
      const open = last && last.started > since ? last.ts : undefined;
      insert.run(teamId, channelId, taskId, 'summary', now, open ?? null);
      const taskIds = summaryTasks
        .all(teamId, channelId, open ?? null, since)
        .map((r) => r.task_id);
      return { kind: 'summary', summaryTs: open, taskIds };
    },
  );
  const summaryPosted = db.transaction(
    (teamId: string, channelId: string, ts: string, taskIds: string[]) => {
      for (const taskId of taskIds) setTs.run(ts, teamId, channelId, taskId);
    },
  );
  const removePosts = db.prepare('DELETE FROM feed_posts WHERE team_id = ?');
  const removeFeeds = db.prepare('DELETE FROM channel_feeds WHERE team_id = ?');
  const deleteTeam = db.transaction(
    (teamId: string) => removePosts.run(teamId).changes + removeFeeds.run(teamId).changes,
  );

  return {
    get(teamId, channelId) {
      const row = select.get(teamId, channelId);
      return row ? fromRow(row) : undefined;
    },
    enable(teamId, channelId, sync, by, now = Date.now(), choice) {
      const { events, filters } = choiceColumns(choice);
      (choice ? upsertChoice : upsert).run(
        teamId,
        channelId,
        sync ? 1 : 0,
        by,
        now,
        events,
        filters,
      );
    },
    disable: (teamId, channelId) => remove.run(teamId, channelId).changes > 0,
    forProject: (teamId, projectId) => byProject.all(teamId, projectId).map(fromRow),
    claim: (teamId, channelId, taskId, now, rule) => claim(teamId, channelId, taskId, now, rule),
    cardPosted(teamId, channelId, taskId, ts) {
      setTs.run(ts, teamId, channelId, taskId);
    },
    summaryPosted(teamId, channelId, ts, taskIds) {
      summaryPosted(teamId, channelId, ts, taskIds);
    },
    release(teamId, channelId, taskId) {
      removePost.run(teamId, channelId, taskId);
    },
    cardsOf: (teamId, taskId) =>
      cards
        .all(teamId, taskId)
        .map((r) => ({ channelId: r.channel_id, ts: r.ts, sync: r.sync === 1 })),
    taskOfCard(teamId, channelId, ts) {
      const row = ofCard.get(teamId, channelId, ts);
      return row ? { taskId: row.task_id, sync: row.sync === 1 } : undefined;
    },
    deleteTeam: (teamId) => deleteTeam(teamId),
  };
}
