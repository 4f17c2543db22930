/**
 * `/work feed [on [sync] | off]` in a channel linked to a project: the channel's task feed.
 * With no word it says how the feed stands. Turning it on or off is announced in the channel
 * (everyone there sees the feed), like linking its project; when Worklink cannot post there
 * (not a member) nothing changes and the person is told how to invite it.
 */
import type { Subcommand } from '../commands/router.js';
import { errMessage } from '../context/error-replies.js';
import { canChangeChannelLinks } from '../context/permissions.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { knownName } from '../shared/project-context.js';
import { inDirectMessage } from '../shared/project-here.js';
import { slackErrorCode } from '../ui/error-text.js';

const USAGE = '`/work feed on`, `/work feed on sync` or `/work feed off`';

const WHAT_SYNC = 'replies in a task’s thread become comments on the task';

const feedCommand: Subcommand = {
  name: 'feed',
  group: 'Projects',
  usage: 'feed [on [sync]|off]',
  example: 'feed on sync',
  summary:
    'post this channel’s new tasks here, one card each, and what happens to them in their threads (`sync`: thread replies become comments)',
  async run(ctx, args) {
    const words = args.words.map((w) => w.toLowerCase());
    const [what, option, ...more] = words;
    const valid =
      words.length === 0 ||
      (what === 'on' && (option === undefined || option === 'sync') && more.length === 0) ||
      (what === 'off' && words.length === 1);
    if (!valid) {
      const typed = esc(args.text.replace(/`/g, '').slice(0, 60));
      await ctx.reply(`\`${typed}\` is not a feed setting. Use ${USAGE}; nothing was changed.`);
      return;
    }
    if (!ctx.channelId || inDirectMessage(ctx)) {
      await ctx.reply(
        'A direct message has no task feed. Run `/work feed on` in a channel linked to a project.',
      );
      return;
    }
    const link = await ctx.store.channelProjects.get(ctx.teamId, ctx.channelId);
    if (!link) {
      await ctx.reply(
        'This channel is not linked to a project, so it has no feed of new tasks. Link one first with `/work project link <projectId>`, then `/work feed on`.',
      );
      return;
    }
    const project = `*${esc(await knownName(ctx, link.projectId))}*`;
    const feed = await ctx.store.channelFeeds.get(ctx.teamId, ctx.channelId);
    if (!what) {
      await ctx.reply(
        feed
          ? `This channel’s task feed is *on*: new tasks of ${project} are posted here, and what happens to each goes in its thread. Thread replies become comments: *${feed.sync ? 'on' : 'off'}*. Change it with ${USAGE}.`
          : `This channel’s task feed is *off*. \`/work feed on\` posts the new tasks of ${project} here (\`/work feed on sync\`: and ${WHAT_SYNC}).`,
      );
      return;
    }
    // Turning the feed on or off is the admin's setting's (the state above is anyone's to see).
    const permission = await canChangeChannelLinks(ctx);
    if (!permission.allowed) {
      await ctx.reply(permission.message);
      return;
    }
    if (what === 'off') {
      if (!feed) {
        await ctx.reply('This channel’s task feed is already off; nothing was changed.');
        return;
      }
      await ctx.store.channelFeeds.disable(ctx.teamId, ctx.channelId);
      const text = `<@${ctx.userId}> turned this channel’s task feed off.`;
      if (!(await announce(ctx, text, false))) {
        await ctx.reply('This channel’s task feed is now off.');
      }
      return;
    }
    const sync = option === 'sync';
    if (feed && feed.sync === sync) {
      await ctx.reply(
        `This channel’s task feed is already on${sync ? `, and ${WHAT_SYNC}` : ''}; nothing was changed.`,
      );
      return;
    }
    const text = `<@${ctx.userId}> turned this channel’s task feed on: new tasks of ${project} are posted here, one card each, and what happens to each goes in its thread${sync ? `; ${WHAT_SYNC}` : ''}.`;
    // Announced first: a channel Worklink cannot post in would get no feed at all.
    if (await announce(ctx, text)) {
      await ctx.store.channelFeeds.enable(ctx.teamId, ctx.channelId, sync, ctx.userId);
    }
  },
};

/**
 * Posts in the channel for everyone; false when it cannot, and then (with `explain`) the
 * person is told why nothing changed.
 */
async function announce(ctx: WorkContext, text: string, explain = true): Promise<boolean> {
  try {
    await ctx.slack.chat.postMessage({ channel: ctx.channelId!, text });
    return true;
  } catch (e) {
    const code = slackErrorCode(e);
    ctx.logger.warn(`Feed: could not post in ${ctx.channelId}: ${errMessage(e)}`);
    if (!explain) return false;
    await ctx.reply(
      code === 'not_in_channel' || code === 'channel_not_found'
        ? 'Worklink is not a member of this channel, so it cannot post the feed here. Invite it with `/invite @Worklink`, then try again; nothing was changed.'
        : `Worklink could not post in this channel (${esc(code)}); nothing was changed. Please try again.`,
    );
    return false;
  }
}

export const feedCommands: Subcommand[] = [feedCommand];
