/**
 * Channel feeds (`/work feed on|off`): channel_feeds says which channels post the new tasks of
 * their linked project (and whether replies in a card's thread become comments: `sync`);
 * feed_posts records what each feed posted for each task — its card (the thread later activity
 * goes to), or its place in a burst summary. A task is posted to a channel at most once: the
 * row is claimed first, so the Slack path, the service's events and the watcher never post
 * the same task twice. This module is SQLite's (synchronous, see sync.ts);
 * pg/channel-feeds.ts is PostgreSQL's.
 */

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
