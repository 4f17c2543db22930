// Events API deliveries as Slack wraps them (an event_callback around the event), and the
// `message` event a person's message in a channel becomes: Slack sends it to an app that
// subscribes to `message.channels` and is a member of the channel (a bot's own messages
// included, as in Slack; the app must tell them apart).

import type { SandboxChannel, SandboxMessage } from './records.js';
import { slackId } from './slack-ids.js';
import { messageObject } from './slack-objects.js';
import type { SandboxState } from './state.js';

/** The event_callback body around `event`, as Slack posts it to the app's request URL. */
export function eventCallback(
  s: SandboxState,
  verificationToken: string,
  event: Record<string, unknown>,
): Record<string, unknown> {
  return {
    token: verificationToken,
    team_id: s.team.id,
    context_team_id: s.team.id,
    api_app_id: s.bot.appId,
    event,
    type: 'event_callback',
    event_id: slackId('Ev'),
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: s.team.id,
        user_id: s.bot.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

/**
 * The `message` event for a message in `channel`, or undefined when the app would not get
 * one: not subscribed (manifest `bot_events`), not a member, or a DM (`message.im`, which
 * Worklink does not ask for).
 */
export function messageEvent(
  s: SandboxState,
  channel: SandboxChannel,
  message: SandboxMessage,
  botEvents: readonly string[],
): Record<string, unknown> | undefined {
  if (channel.kind !== 'channel' || !botEvents.includes('message.channels')) return undefined;
  if (!channel.members.has(s.bot.botUserId) || message.ephemeralTo !== undefined) return undefined;
  return {
    ...messageObject(s, message),
    channel: channel.id,
    event_ts: message.ts,
    channel_type: 'channel',
  };
}
