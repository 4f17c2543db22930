// The Web API methods that write or point at messages: chat.postMessage, chat.postEphemeral,
// chat.update, chat.delete, chat.getPermalink and reactions.add, with Slack's error names.

import { messageObject } from './slack-objects.js';
import type { SandboxState } from './state.js';
import {
  channelArg,
  fail,
  type MethodHandler,
  messageContent,
  metadataArg,
  str,
} from './web-api-args.js';

export function messageMethods(s: SandboxState): Record<string, MethodHandler> {
  return {
    'chat.postMessage': (args) => {
      const id = str(args, 'channel');
      const channel = (id && s.resolvePostChannel(id)) || fail('channel_not_found');
      if (!channel.members.has(s.bot.botUserId)) fail('not_in_channel');
      const content = messageContent(args);
      const threadTs = str(args, 'thread_ts');
      const message = s.addMessage({
        channel: channel.id,
        user: s.bot.botUserId,
        botId: s.bot.botId,
        ...content,
        threadTs,
        metadata: metadataArg(args),
      });
      return { channel: channel.id, ts: message.ts, message: messageObject(s, message) };
    },

    'chat.postEphemeral': (args) => {
      const id = str(args, 'channel');
      const channel = (id && s.resolvePostChannel(id)) || fail('channel_not_found');
      const userId = str(args, 'user') ?? '';
      if (!s.users.has(userId)) fail('user_not_found');
      if (!channel.members.has(userId)) fail('user_not_in_channel');
      const content = messageContent(args);
      const message = s.addMessage({
        channel: channel.id,
        user: s.bot.botUserId,
        botId: s.bot.botId,
        ...content,
        threadTs: str(args, 'thread_ts'),
        ephemeralTo: userId,
      });
      return { message_ts: message.ts };
    },

    'chat.update': (args) => {
      const channel = channelArg(s, args);
      const ts = str(args, 'ts') ?? '';
      const message = s.findMessage(channel.id, ts);
      if (!message || message.ephemeralTo !== undefined) fail('message_not_found');
      if (message.user !== s.bot.botUserId) fail('cant_update_message');
      const content = messageContent(args);
      const updated = s.replaceMessage(message, content, s.bot.botUserId);
      return { channel: channel.id, ts, text: updated.text, message: messageObject(s, updated) };
    },

    'chat.delete': (args) => {
      const channel = channelArg(s, args);
      const ts = str(args, 'ts') ?? '';
      const message = s.findMessage(channel.id, ts);
      if (!message || message.ephemeralTo !== undefined) fail('message_not_found');
      if (message.user !== s.bot.botUserId) fail('cant_delete_message');
      s.deleteMessage(message);
      return { channel: channel.id, ts };
    },

    'reactions.add': (args) => {
      const channel = channelArg(s, args);
      const message = s.findMessage(channel.id, str(args, 'timestamp') ?? '');
      if (!message || message.ephemeralTo !== undefined) fail('message_not_found');
      const name = str(args, 'name') ?? '';
      if (!/^[a-z0-9_+-]{1,100}$/.test(name)) fail('invalid_name');
      if (!s.addReaction(message, name, s.bot.botUserId)) fail('already_reacted');
      return {};
    },

    'chat.getPermalink': (args) => {
      const channel = channelArg(s, args);
      const ts = str(args, 'message_ts') ?? '';
      const message = s.findMessage(channel.id, ts);
      if (!message || message.ephemeralTo !== undefined) fail('message_not_found');
      return {
        channel: channel.id,
        permalink: `${s.baseUrl}/archives/${channel.id}/p${ts.replace('.', '')}`,
      };
    },
  };
}
