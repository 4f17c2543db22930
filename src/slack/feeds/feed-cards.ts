/**
 * A new task in a project with feeds: each feed channel gets the task's compact live card
 * (tasks/card/live-view.ts, remembered in task_messages so live updates keep it current), or,
 * past the burst rule, a line in one summary message edited as more arrive. A task created
 * with `/work add` in a feed channel is placed by that command (`place`): its confirmation
 * card is the feed's card (never a second one), or past the burst rule only its author is
 * told. A task made from a message also answers in that message's thread with the same live
 * card, so the conversation links to the task; in a feed channel that answer IS the feed's
 * card (one card, not two), and the task's later activity follows in the same thread.
 *
 * Each channel's posts run one at a time (keyed-serial.ts): the burst rule counts what the
 * channel already got. Store claims (channel-feeds store) make a task post once per channel,
 * whichever path tells of it first: the Slack path, the service's event, the watcher.
 */

import type { TaskActivity } from '../../activity/hub.js';
import type { ChannelFeed } from '../../store/index.js';
import { errMessage } from '../context/error-replies.js';
import type { FeedPlace, TaskCardData } from '../context/ports.js';
import type { TeamReader } from '../context/team-scope.js';
import { postCard } from '../tasks/card/live-post.js';
import { fitMessage } from '../ui/limits.js';
import { type SummaryEntry, summaryMessage } from './feed-text.js';
import { KeyedSerial } from './keyed-serial.js';
import { whoActed } from './people-labels.js';

type Created = Extract<TaskActivity, { kind: 'created' }>;

/** The burst rule: more than 5 new tasks within a minute become one summary. */
export const BURST = { windowMs: 60_000, cards: 5 };

/** The task's card data, read once for all the channels (undefined: it cannot be read). */
export type CardLoader = () => Promise<TaskCardData | undefined>;

interface PendingSummary {
  channelId: string;
  ts?: string;
  taskIds: string[];
  projectName?: string;
}

export class FeedCards {
  private readonly serial = new KeyedSerial();
  /** Per team:channel, the summary to post or edit once no more tasks wait behind. */
  private readonly summaries = new Map<string, PendingSummary>();

  constructor(private readonly now: () => number) {}

  /** Posts the task in each feed channel (in the background of the hub). */
  async post(ctx: TeamReader, a: Created, feeds: ChannelFeed[], load: CardLoader): Promise<void> {
    const actor = await whoActed(ctx, a.actor);
    await Promise.all(
      feeds.map((f) =>
        this.place(ctx, f.channelId, a.taskId, actor, load, sourceThread(a, f.channelId)),
      ),
    );
  }

  /**
   * The task's place in one channel's feed: its card posted ('card'), a line in the burst's
   * summary ('summary'), already there ('taken'), or not posted ('failed').
   */
  place(
    ctx: TeamReader,
    channelId: string,
    taskId: string,
    actor: string | undefined,
    load: CardLoader,
    thread?: string,
  ): Promise<FeedPlace> {
    const key = `${ctx.teamId}:${channelId}`;
    return this.serial.run(key, async () => {
      try {
        return await this.placeOne(ctx, channelId, taskId, actor, load, thread);
      } finally {
        if (this.serial.waiting(key) === 0) await this.flushSummary(ctx, key);
      }
    });
  }

  /** Answers in the thread of the message the task was made from. */
  async answerSource(ctx: TeamReader, a: Created, load: CardLoader): Promise<void> {
    if (!a.source) return;
    const data = await load();
    if (!data) return;
    const actor = await whoActed(ctx, a.actor);
    try {
      await postCard(ctx, data, { channel: a.source.channel, threadTs: a.source.ts, actor });
    } catch (e) {
      ctx.logger.warn(
        `Could not answer in the thread of ${a.source.channel}/${a.source.ts} for task ${a.taskId}: ${errMessage(e)}`,
      );
    }
  }

  idle(): Promise<void> {
    return this.serial.idle();
  }

  private async placeOne(
    ctx: TeamReader,
    channelId: string,
    taskId: string,
    actor: string | undefined,
    load: CardLoader,
    thread: string | undefined,
  ): Promise<FeedPlace> {
    const { store, teamId } = ctx;
    const claim = await store.channelFeeds.claim(teamId, channelId, taskId, this.now(), BURST);
    if (claim.kind === 'taken') return 'taken';
    if (claim.kind === 'summary') {
      const key = `${teamId}:${channelId}`;
      // A new summary (the last one's minute is over): the last one gets its final edit first.
      if (this.summaries.get(key)?.ts !== claim.summaryTs) await this.flushSummary(ctx, key);
      const data = await load();
      this.summaries.set(key, {
        channelId,
        ts: claim.summaryTs,
        taskIds: claim.taskIds,
        projectName: data?.projectName,
      });
      // The message the task was made from still gets its answer (not the feed's card).
      if (thread && data)
        await postCard(ctx, data, { channel: channelId, threadTs: thread, actor });
      return 'summary';
    }
    const data = await load();
    if (!data) {
      await store.channelFeeds.release(teamId, channelId, taskId);
      return 'failed';
    }
    try {
      // Made from a message here: the card answers in its thread, and that thread is the
      // feed's thread for the task (later activity replies there).
      const ts = await postCard(ctx, data, { channel: channelId, threadTs: thread, actor });
      await store.channelFeeds.cardPosted(teamId, channelId, taskId, thread ?? ts);
      return 'card';
    } catch (e) {
      // Not posted (not a member, channel gone…): the task may be posted by a later telling.
      await store.channelFeeds.release(teamId, channelId, taskId);
      ctx.logger.warn(`Feed: could not post task ${taskId} in ${channelId}: ${errMessage(e)}`);
      return 'failed';
    }
  }

  /** Posts the channel's summary, or edits it to list every task it has by now. */
  private async flushSummary(ctx: TeamReader, key: string): Promise<void> {
    const pending = this.summaries.get(key);
    if (!pending) return;
    this.summaries.delete(key);
    const entries: SummaryEntry[] = await Promise.all(
      pending.taskIds.map(async (taskId) => {
        const known = await ctx.store.taskIndex.get(ctx.teamId, taskId);
        return { taskId, name: known?.name ?? taskId, number: known?.number };
      }),
    );
    const message = fitMessage(summaryMessage(entries, pending.projectName));
    try {
      if (pending.ts) {
        await ctx.slack.chat.update({ channel: pending.channelId, ts: pending.ts, ...message });
        return;
      }
      const res = await ctx.slack.chat.postMessage({ channel: pending.channelId, ...message });
      if (res.ts) {
        await ctx.store.channelFeeds.summaryPosted(
          ctx.teamId,
          pending.channelId,
          res.ts,
          pending.taskIds,
        );
      }
    } catch (e) {
      ctx.logger.warn(`Feed: could not post the summary in ${pending.channelId}: ${errMessage(e)}`);
    }
  }
}

/** The thread of the message `a` was made from, when that message is in `channelId`. */
export function sourceThread(a: Created, channelId: string): string | undefined {
  return a.source?.channel === channelId ? a.source.ts : undefined;
}
