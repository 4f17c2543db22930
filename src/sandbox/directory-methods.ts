// The Web API methods that read the workspace: who the token is (auth.test), people
// (users.*), conversations (conversations.open/info/history) and files (files.info).

import { conversationHistory } from './history.js';
import { channelObject, userObject } from './slack-objects.js';
import type { SandboxState } from './state.js';
import { bool, channelArg, fail, type MethodHandler, str } from './web-api-args.js';

export function directoryMethods(s: SandboxState): Record<string, MethodHandler> {
  return {
    'api.test': (args) => ({ args: Object.keys(args).length > 0 ? args : undefined }),

    'auth.test': () => ({
      url: `${s.baseUrl}/`,
      team: s.team.name,
      user: s.bot.name,
      team_id: s.team.id,
      user_id: s.bot.botUserId,
      bot_id: s.bot.botId,
      is_enterprise_install: false,
    }),

    'users.info': (args) => {
      const user = s.users.get(str(args, 'user') ?? '') ?? fail('user_not_found');
      return { user: userObject(s, user) };
    },

    // The channels (not DMs) a person is in, one page (the sandbox has few).
    'users.conversations': (args) => {
      const userId = str(args, 'user') ?? s.bot.botUserId;
      if (!s.users.has(userId) && userId !== s.bot.botUserId) fail('user_not_found');
      const channels = [...s.channels.values()].filter(
        (c) => c.kind === 'channel' && c.members.has(userId),
      );
      return {
        channels: channels.map((c) => channelObject(s, c)),
        response_metadata: { next_cursor: '' },
      };
    },

    'users.lookupByEmail': (args) => {
      const user = s.userByEmail(str(args, 'email') ?? '') ?? fail('users_not_found');
      return { user: userObject(s, user) };
    },

    'users.list': () => ({
      members: [...s.users.values()].map((u) => userObject(s, u)),
      cache_ts: Math.floor(Date.now() / 1000),
      response_metadata: { next_cursor: '' },
    }),

    'conversations.open': (args) => {
      const channelId = str(args, 'channel');
      const returnIm = bool(args, 'return_im');
      if (channelId) {
        const channel = channelArg(s, args);
        return { channel: returnIm ? channelObject(s, channel) : { id: channel.id } };
      }
      const users = (str(args, 'users') ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u.length > 0);
      if (users.length === 0) fail('users_list_not_supplied');
      if (users.length > 1) {
        s.note('warn', 'conversations.open with several users (a group DM) is not in the sandbox.');
        fail('invalid_arguments', ['[ERROR] group DMs are not supported by the sandbox']);
      }
      const user = s.users.get(users[0]);
      if (!user || user.isBot) fail('user_not_found');
      const im = s.imFor(users[0]) ?? fail('user_not_found');
      return {
        no_op: true,
        already_open: true,
        channel: returnIm ? channelObject(s, im) : { id: im.id },
      };
    },

    'conversations.info': (args) => ({ channel: channelObject(s, channelArg(s, args)) }),

    'conversations.history': (args) => {
      const channel = channelArg(s, args);
      if (!channel.members.has(s.bot.botUserId)) fail('not_in_channel');
      return conversationHistory(s, channel.id, args);
    },

    'files.info': (args) => {
      const file = s.files.get(str(args, 'file') ?? '') ?? fail('file_not_found');
      return { file, comments: [], response_metadata: { next_cursor: '' } };
    },
  };
}
