// What the composer does with a line: a slash command (the signed command request, then what
// Slack does with the app's answer) or a plain message (the `message` event and link_shared,
// for an app that subscribes).

import { type AppLink, answered, type InteractionResult } from './app-link.js';
import { eventCallback, messageEvent } from './event-callbacks.js';
import { parseJsonObject } from './json-guards.js';
import type { SandboxChannel } from './records.js';
import { slackText } from './slack-text.js';

export async function sendMessage(
  link: AppLink,
  userId: string,
  channelId: string,
  text: string,
  /** A reply in the thread of this message. */
  threadTs?: string,
): Promise<InteractionResult> {
  const s = link.state;
  const { surface, previews, verificationToken } = link.opts;
  if (!link.human(userId)) return { ok: false, problem: `There is no user ${userId}.` };
  const channel = link.memberChannel(userId, channelId);
  if (!channel) return { ok: false, problem: `You are not in channel ${channelId}.` };
  const trimmed = text.trim();
  if (trimmed.length === 0) return { ok: false, problem: 'Type a message first.' };
  if (trimmed.startsWith('/')) {
    const [command = ''] = trimmed.split(/\s+/);
    const known = surface().commands.find((c) => c.command === command.toLowerCase());
    if (!known) {
      link.slackbotSays(
        userId,
        channel.id,
        `\`${command}\` is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
      );
      return { ok: true };
    }
    const args = slackText(trimmed.slice(command.length).trim(), s, known.shouldEscape === true);
    return slashCommand(link, userId, channel, known.command, args);
  }
  const parent = threadTs ? s.findMessage(channel.id, threadTs) : undefined;
  if (
    threadTs &&
    (!parent ||
      parent.ephemeralTo !== undefined ||
      (parent.threadTs !== undefined && parent.threadTs !== parent.ts))
  ) {
    return { ok: false, problem: 'There is no such message to reply to in this channel.' };
  }
  const message = s.addMessage({
    channel: channel.id,
    user: userId,
    text: slackText(trimmed, s, true),
    threadTs,
  });
  const event = messageEvent(s, channel, message, surface().botEvents);
  if (event) {
    const body = eventCallback(s, verificationToken, event);
    await link.deliver('event', body, `message in #${s.channelName(channel)}`);
  }
  const shared = previews?.linkShared(channel, message, surface().botEvents);
  if (shared) {
    const body = eventCallback(s, verificationToken, shared);
    await link.deliver('event', body, `links in #${s.channelName(channel)}`);
  }
  return { ok: true };
}

/** The signed command request; the app's HTTP answer becomes a message as Slack shows it. */
export async function slashCommand(
  link: AppLink,
  userId: string,
  channel: SandboxChannel,
  command: string,
  text: string,
): Promise<InteractionResult> {
  const s = link.state;
  const user = link.human(userId);
  if (!user) return { ok: false, problem: `There is no user ${userId}.` };
  const hook = s.newResponseHook(userId, channel.id);
  const d = await link.deliver(
    'command',
    {
      token: link.opts.verificationToken,
      team_id: s.team.id,
      team_domain: s.team.domain,
      channel_id: channel.id,
      channel_name: s.channelName(channel),
      user_id: userId,
      user_name: user.name,
      command,
      text,
      api_app_id: s.bot.appId,
      is_enterprise_install: 'false',
      response_url: s.responseUrl(hook),
      trigger_id: s.issueTrigger(userId),
    },
    `${command} ${text}`.trim(),
  );
  if (d.failure === 'timeout' || d.status === 0 || !answered(d)) {
    const error = d.failure === 'timeout' ? 'operation_timeout' : 'dispatch_failed';
    link.slackbotSays(userId, channel.id, `${command} failed with the error "${error}"`);
    return { ok: false, status: d.status, problem: `${command} failed with the error "${error}"` };
  }
  const body = d.body.trim();
  if (body.length > 0) {
    const parsed = parseJsonObject(body) ?? { text: body };
    if (parsed.response_type === 'in_channel') {
      // Slack shows the invocation above an in-channel answer.
      s.addMessage({ channel: channel.id, user: userId, text: `${command} ${text}`.trim() });
    }
    const posted = link.postAppMessage(userId, channel, parsed, `${command} answer`);
    if (posted) hook.original = { channel: posted.channel, ts: posted.ts };
  }
  return { ok: true, status: d.status };
}
