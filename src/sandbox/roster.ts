// Who and what a sandbox starts with: the people (each with an avatar colour), the app's bot
// user, the public channels (everyone and the bot in each) and one DM with the bot per person.

import type { SandboxChannel, SandboxUser, WorkspaceIdentity } from './records.js';
import type { SandboxChannelSpec, SandboxUserSpec } from './workspace.js';

const COLORS = ['9f69e7', '4bbe2e', 'e7392d', '3c989f', 'e96699', 'e0a729', '674b1b', '2b6836'];

/** The people in spec order, then the app's bot user. */
export function startingUsers(
  ws: WorkspaceIdentity,
  specs: readonly SandboxUserSpec[],
): SandboxUser[] {
  const people = specs.map((u, i) => ({ ...u, isBot: false, color: COLORS[i % COLORS.length] }));
  const bot: SandboxUser = {
    id: ws.bot.botUserId,
    name: ws.bot.name,
    realName: ws.appName,
    email: '',
    tz: 'America/Los_Angeles',
    isBot: true,
    color: '3aa3e3',
  };
  return [...people, bot];
}

/** The channels, everyone in each, then each person's DM with the bot. */
export function startingChannels(
  ws: WorkspaceIdentity,
  specs: readonly SandboxChannelSpec[],
  humans: readonly string[],
): SandboxChannel[] {
  const created = Math.floor(Date.now() / 1000);
  const channels = specs.map(
    (c): SandboxChannel => ({
      id: c.id,
      name: c.name,
      kind: 'channel',
      members: new Set([...humans, ws.bot.botUserId]),
      topic: c.topic,
      created,
    }),
  );
  // Deterministic DM ids keep URLs and test expectations stable across restarts.
  const ims = humans.map(
    (id): SandboxChannel => ({
      id: `D${id.slice(1)}`,
      name: `D${id.slice(1)}`,
      kind: 'im',
      members: new Set([id, ws.bot.botUserId]),
      imUser: id,
      created,
    }),
  );
  return [...channels, ...ims];
}
