/**
 * `/work feed on sync`: a reply a person writes in the thread of a feed card becomes a comment
 * on the task, written as them (context/acting.ts): with their own key, else through the
 * workspace's key signed with their Slack name (tasks/comment/authored.ts). Guests and people
 * of another organisation without a key of their own are not synced (and told why). Slack sends every
 * message of the channels Worklink is in (`message.channels`, `message.groups`); only replies
 * in a feed card's thread, in a channel whose feed syncs, are taken.
 *
 * No loops: messages from Worklink itself (its bot id or bot user) and from other apps are
 * never taken, nor edits, deletions or joins (subtypes); the comment is told to the activity
 * hub with `fromThread`, so the feed does not echo it back into the thread it came from.
 */
import type { App } from '@slack/bolt';
import { actingFor } from '../context/acting.js';
import type { WorklinkDeps } from '../context/deps.js';
import { errMessage, errorText } from '../context/error-replies.js';
import { type WorkContext, workContext } from '../context/work-context.js';
import { plainText } from '../format/text.js';
import { taskChanges } from '../tasks/changes.js';

export interface ThreadReply {
  channel: string;
  ts: string;
  threadTs: string;
  user: string;
  text: string;
}

/** The reaction a synced reply gets (📝): it became a comment on the task. */
export const SYNCED_REACTION = 'memo';

/** Subtypes that are still a person's new message (a reply also sent to the channel; files). */
const PERSON_SUBTYPES = new Set(['thread_broadcast', 'file_share']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** The event as a person's reply in a thread, or undefined for anything else. */
export function threadReplyOf(
  event: unknown,
  self: { botUserId?: string },
): ThreadReply | undefined {
  if (!isRecord(event)) return undefined;
  const e = event;
  if (e.type !== 'message') return undefined;
  if (e.subtype !== undefined && !PERSON_SUBTYPES.has(String(e.subtype))) return undefined;
  // Worklink's own replies, and any app's: never taken (bot_id is on every app's message).
  if (e.bot_id !== undefined || e.bot_profile !== undefined || e.app_id !== undefined) {
    return undefined;
  }
  const user = str(e.user);
  const channel = str(e.channel);
  const ts = str(e.ts);
  const threadTs = str(e.thread_ts);
  if (!user || !channel || !ts || !threadTs || threadTs === ts) return undefined;
  if (user === self.botUserId) return undefined;
  return { channel, ts, threadTs, user, text: typeof e.text === 'string' ? e.text : '' };
}

export function registerThreadSync(app: App, deps: WorklinkDeps): void {
  app.event('message', async (args) => {
    const reply = threadReplyOf(args.event, args.context);
    if (!reply) return;
    const teamId = args.context.teamId ?? '';
    try {
      const card = await deps.store.channelFeeds.taskOfCard(teamId, reply.channel, reply.threadTs);
      if (!card?.sync) return;
      const ctx = await workContext(deps, args, { channelId: reply.channel });
      if (!ctx.connection || ctx.userId !== reply.user) return;
      await commentFromReply(ctx, card.taskId, reply);
    } catch (e) {
      deps.logger.warn(
        `Feed sync: a reply in ${reply.channel}/${reply.threadTs}: ${errMessage(e)}`,
      );
    }
  });
}

async function commentFromReply(ctx: WorkContext, taskId: string, reply: ThreadReply) {
  const text = plainText(reply.text).trim();
  if (!text) return;
  // Guests and people of another organisation (Slack Connect) are not synced through the
  // workspace's key: they are told why, in the thread, only to them.
  const by = await actingFor(ctx);
  if ('refused' in by) {
    await tellInThread(
      ctx,
      reply,
      by.refused.replace('nothing was changed', 'your reply was not added to the task'),
    );
    return;
  }
  try {
    // Their own key: the service names them; else the comment is signed with their name.
    await taskChanges(ctx).comment(by, taskId, text, {
      fromThread: { channel: reply.channel, ts: reply.threadTs },
      read: false,
    });
  } catch (e) {
    const why = errorText(ctx, e, {
      action: 'add your reply to the task as a comment',
      id: taskId,
    });
    await tellInThread(ctx, reply, why);
    return;
  }
  // A sign, in the thread, that the reply is now a comment on the task (reactions:write).
  await ctx.slack.reactions
    .add({ channel: reply.channel, timestamp: reply.ts, name: SYNCED_REACTION })
    .catch((e: unknown) =>
      ctx.logger.debug(`Feed sync: no reaction on ${reply.channel}/${reply.ts}: ${errMessage(e)}`),
    );
}

/** An ephemeral answer in the reply's thread, for its writer only. */
async function tellInThread(ctx: WorkContext, reply: ThreadReply, why: string): Promise<void> {
  await ctx.slack.chat
    .postEphemeral({
      channel: reply.channel,
      thread_ts: reply.threadTs,
      user: reply.user,
      text: why,
    })
    .catch((err: unknown) =>
      ctx.logger.warn(`Feed sync: could not tell ${reply.user} (${errMessage(err)}): ${why}`),
    );
}
