import type { WebClient } from '@slack/web-api';
import type { TaskActivity } from '../../activity/hub.js';
import type { LongLivedPart } from '../../long-lived-part.js';
import type { ChannelFeed } from '../../store/index.js';
import { isWorkApiError } from '../../workapi/client.js';
import type { Task } from '../../workapi/contract.js';
import { errMessage } from '../context/error-replies.js';
import type { FeedPlacement } from '../context/ports.js';
import { type TeamReader, type TeamReaders, teamReader } from '../context/team-scope.js';
import { inDirectMessage } from '../shared/project-here.js';
import { taskCardData } from '../tasks/card/load.js';
import { factsFromTask } from '../tasks/facts.js';
import { type CardLoader, FeedCards } from './feed-cards.js';
import { feedEventOf, filterFactsOf, passes } from './feed-choice.js';
import { taskLabel, threadReplyText } from './feed-text.js';
import { peopleLabels, whoActed } from './people-labels.js';

export interface ChannelFeedsPart extends LongLivedPart, FeedPlacement {
  /** The hub's listener (registered by start/parts.ts). */
  onActivity(teamId: string, activity: TaskActivity): Promise<void>;
  /** Resolves when no feed post is waiting or running (tests). */
  idle(): Promise<void>;
  /**
   * Worklink is stopping: a new task waiting out the events' grace for the Slack path is
   * posted now, so that stopping neither waits out the grace nor loses the card.
   */
  hurry(): void;
}

type TaskReader = () => Promise<Task | undefined>;

export interface ChannelFeedsDeps extends TeamReaders {
  /** How long a task not made from Slack waits for the Slack path (the events' grace). */
  graceMs(): number;
  now(): number;
}

export function createChannelFeeds(o: ChannelFeedsDeps): ChannelFeedsPart {
  const cards = new FeedCards(o.now);
  const waits = new Set<() => void>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  let hurried = false;

  /** Waits `ms`, or less when stopping; true when it may go on. */
  const pause = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (ms <= 0 || hurried) return resolve(!stopped);
      const done = () => {
        clearTimeout(timer);
        waits.delete(done);
        resolve(!stopped);
      };
      const timer = setTimeout(done, ms);
      waits.add(done);
    });

  /** The team as the feed reads and posts for it; undefined when it cannot. */
  const contextFor = (teamId: string, slack?: WebClient) => teamReader(o, teamId, slack);

  /** The task, read once however many feeds ask (undefined: it cannot be read). */
  const readerFor = (ctx: TeamReader, taskId: string): TaskReader => {
    let reading: Promise<Task | undefined> | undefined;
    return () => {
      reading ??= ctx.work.getTask(taskId).catch((e: unknown) => {
        if (!(isWorkApiError(e) && e.kind === 'not_found')) {
          o.logger.warn(`Feed: could not read task ${taskId}: ${errMessage(e)}`);
        }
        return undefined;
      });
      return reading;
    };
  };

  const loaderFor = (ctx: TeamReader, read: TaskReader): CardLoader => {
    let loading: ReturnType<CardLoader> | undefined;
    return () => {
      loading ??= read().then((task) =>
        task ? taskCardData(ctx, factsFromTask(task)) : undefined,
      );
      return loading;
    };
  };

  async function created(teamId: string, a: Extract<TaskActivity, { kind: 'created' }>) {
    const projectId =
      a.projectId ?? (await o.store.taskIndex.get(teamId, a.taskId))?.projectId ?? undefined;
    const posting = projectId
      ? (await o.store.channelFeeds.forProject(teamId, projectId)).filter((f) =>
          f.events.includes('created'),
        )
      : [];
    // Most new tasks have no feed to go to and no message to answer: then the team's
    // connection is not even read (a `/work add` burst read it twice per command).
    if (posting.length === 0 && !a.source) return;
    const ctx = await contextFor(teamId);
    if (!ctx) return;
    const read = readerFor(ctx, a.taskId);
    const load = loaderFor(ctx, read);
    const feeds = await heardBy(posting, read);
    // In a feed channel the feed's card answers the message (feed-cards.ts): not twice.
    const source = a.source;
    if (source && !feeds.some((f) => f.channelId === source.channel)) {
      await cards.answerSource(ctx, a, load);
    }
    if (feeds.length === 0) return;
    if (!a.actor?.slackUserId && !(await pause(o.graceMs()))) return;
    await cards.post(ctx, a, feeds, load);
  }

  /** The feeds whose filters the task passes (read only when some feed has filters). */
  async function heardBy(feeds: ChannelFeed[], read: TaskReader): Promise<ChannelFeed[]> {
    if (!feeds.some((f) => Object.keys(f.filters).length > 0)) return feeds;
    const task = await read();
    if (!task) return feeds.filter((f) => Object.keys(f.filters).length === 0);
    const facts = filterFactsOf(task);
    return feeds.filter((f) => passes(f.filters, facts));
  }

  async function later(teamId: string, a: Exclude<TaskActivity, { kind: 'created' }>) {
    const kind = feedEventOf(a);
    const posted = await o.store.channelFeeds.cardsOf(teamId, a.taskId);
    const projectId =
      a.projectId ?? (await o.store.taskIndex.get(teamId, a.taskId))?.projectId ?? undefined;
    // Feeds that do not post new tasks hear later activity as a line in the channel.
    const lines = projectId
      ? (await o.store.channelFeeds.forProject(teamId, projectId)).filter(
          (f) => kind && !f.events.includes('created') && f.events.includes(kind),
        )
      : [];
    if (posted.length === 0 && lines.length === 0) return;
    const ctx = await contextFor(teamId);
    if (!ctx || !kind) return;
    const who = await whoActed(ctx, a.actor);
    const added =
      a.kind === 'assigned'
        ? await peopleLabels(ctx, a.added)
        : a.kind === 'changed'
          ? await peopleLabels(
              ctx,
              a.fields.flatMap((f) => f.people ?? []),
            )
          : [];
    const text = threadReplyText(a, who, added);
    if (!text) return;
    for (const card of posted) {
      const from = a.kind === 'commented' ? a.fromThread : undefined;
      if (from && from.channel === card.channelId && from.ts === card.ts) continue;
      const feed = await o.store.channelFeeds.get(teamId, card.channelId);
      if (!feed?.events.includes(kind)) continue;
      await say(ctx, a.taskId, card.channelId, text, card.ts);
    }
    const read = readerFor(ctx, a.taskId);
    const heard = await heardBy(lines, read);
    if (heard.length === 0) return;
    const task = await read();
    const line = threadReplyText(a, who, added, taskLabel(task, a.taskId));
    for (const feed of heard) await say(ctx, a.taskId, feed.channelId, line ?? text);
  }

  async function say(ctx: TeamReader, taskId: string, channel: string, text: string, ts?: string) {
    try {
      await ctx.slack.chat.postMessage({ channel, text, ...(ts ? { thread_ts: ts } : {}) });
    } catch (e) {
      o.logger.warn(
        `Feed: could not tell activity of task ${taskId} in ${channel}${ts ? ' (thread)' : ''}: ${errMessage(e)}`,
      );
    }
  }

  return {
    name: 'channel feeds',
    onActivity(teamId, activity) {
      if (stopped) return Promise.resolve();
      const job = (
        activity.kind === 'created' ? created(teamId, activity) : later(teamId, activity)
      )
        .catch((e: unknown) =>
          o.logger.warn(`Feed: ${activity.kind} of task ${activity.taskId}: ${errMessage(e)}`),
        )
        .finally(() => running.delete(job));
      running.add(job);
      return job;
    },
    async placeHere(request, data, projectId) {
      const { teamId, channelId } = request;
      if (stopped || !channelId || inDirectMessage(request)) return undefined;
      if ((await o.store.channelProjects.get(teamId, channelId))?.projectId !== projectId) {
        return undefined;
      }
      const feed = await o.store.channelFeeds.get(teamId, channelId);
      if (!feed?.events.includes('created')) return undefined;
      const ctx = await contextFor(teamId, request.slack);
      if (!ctx) return undefined;
      if ((await heardBy([feed], readerFor(ctx, data.taskId))).length === 0) return undefined;
      return cards.place(ctx, channelId, data.taskId, `<@${request.userId}>`, async () => data);
    },
    async idle() {
      while (running.size) await Promise.all(running);
      await cards.idle();
    },
    start() {},
    hurry() {
      hurried = true;
      for (const done of [...waits]) done();
    },
    async stop() {
      stopped = true;
      for (const done of [...waits]) done();
      await Promise.all(running);
    },
  };
}
