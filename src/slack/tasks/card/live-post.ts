/**
 * Posting a new task's live card, by one rule: in a channel, one compact message everyone
 * can see; in a DM or from a modal, the same only to its author (in their DM with Worklink).
 * The posted message is remembered, so later changes to the task update it in place.
 */
import type { WebClient } from '@slack/web-api';
import { errMessage } from '../../context/error-replies.js';
import type { TaskCardData } from '../../context/ports.js';
import type { TeamScope } from '../../context/team-scope.js';
import type { WorkContext } from '../../context/work-context.js';
import { inDirectMessage } from '../../shared/project-here.js';
import { fitMessage } from '../../ui/limits.js';
import { type LiveMessage, liveMessage } from './live-view.js';

export type LivePlace = 'here' | 'author';

/**
 * Posts the card ('here': the context's channel, unless that is a DM; 'author': the
 * author's DM) and remembers it. Returns the message when it could not be posted, so the
 * caller can show it another way; undefined when posted.
 */
export async function postLiveCard(
  ctx: WorkContext,
  data: TaskCardData,
  place: LivePlace,
): Promise<LiveMessage | undefined> {
  const actor = `<@${ctx.userId}>`;
  const channel = place === 'here' && !inDirectMessage(ctx) ? ctx.channelId! : ctx.userId;
  try {
    await postCard(ctx, data, { channel, actor });
    return undefined;
  } catch (e) {
    ctx.logger.warn(
      `Could not post the card of task ${data.taskId} in ${channel}: ${errMessage(e)}`,
    );
    return liveMessage({ kind: 'card', data, actor });
  }
}

/**
 * Posts the task's live card in `channel` (in the thread of `threadTs` when given) and
 * remembers it; returns the posted message's ts. Throws when Slack refuses it.
 */
export async function postCard(
  ctx: Pick<TeamScope, 'teamId' | 'store'> & { slack: WebClient },
  data: TaskCardData,
  where: { channel: string; threadTs?: string; actor: string | undefined },
): Promise<string> {
  const message = fitMessage(liveMessage({ kind: 'card', data, actor: where.actor }));
  const res = await ctx.slack.chat.postMessage({
    channel: where.channel,
    ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
    ...message,
  });
  if (!res.ts) throw new Error('chat.postMessage answered no ts');
  await ctx.store.taskMessages.remember({
    teamId: ctx.teamId,
    taskId: data.taskId,
    channelId: res.channel ?? where.channel,
    ts: res.ts,
    kind: 'card',
    actor: where.actor,
    number: data.number,
  });
  return res.ts;
}
