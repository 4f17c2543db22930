/**
 * `/work feed [on [what…] [filters…] [sync] | off]` in a channel linked to a project: the
 * channel's task feed, and what it hears (feed-choice.ts). With no word it says in one line
 * how the feed stands. Turning it on or off is announced in the channel
 * (everyone there sees the feed), like linking its project; when Worklink cannot post there
 * (not a member) nothing changes and the person is told how to invite it.
 */
import type { FeedChoice } from '../../store/index.js';
import type { Subcommand } from '../commands/router.js';
import { errMessage } from '../context/error-replies.js';
import { canChangeChannelLinks } from '../context/permissions.js';
import type { WorkContext } from '../context/work-context.js';
import { esc } from '../format/text.js';
import { knownName } from '../shared/project-context.js';
import { inDirectMessage } from '../shared/project-here.js';
import { resolveAssignees } from '../tasks/assignees.js';
import { slackErrorCode } from '../ui/error-text.js';
import { describeChoice, FEED_WORDS_HELP, parseFeedWords } from './feed-choice.js';

const USAGE =
  '`/work feed on [created] [done] [comments] [assigned] [changes] [filters…] [sync]` or `/work feed off`';

const WHAT_SYNC = 'replies in a task’s thread become comments on the task';

const feedCommand: Subcommand = {
  name: 'feed',
  group: 'Projects',
  usage:
    'feed [on [created|done|comments|assigned|changes] [priority:high+] [group:…] [assignee:@…] [label:…] [sync]|off]',
  example: 'feed on created done priority:high+',
  summary:
    'post this channel’s new tasks here, one card each, and what happens to them in their threads; choose what it hears and of which tasks (`sync`: thread replies become comments)',
  async run(ctx, args) {
    const [what, ...rest] = args.words;
    const verb = what?.toLowerCase();
    if (verb !== undefined && verb !== 'on' && verb !== 'off') {
      const typed = esc(args.text.replace(/`/g, '').slice(0, 60));
      await ctx.reply(`\`${typed}\` is not a feed setting. Use ${USAGE}; nothing was changed.`);
      return;
    }
    if (verb === 'off' && rest.length > 0) {
      await ctx.reply(
        `\`/work feed off\` takes nothing after it. Use ${USAGE}; nothing was changed.`,
      );
      return;
    }
    const sync = rest.some((w) => w.toLowerCase() === 'sync');
    const parsed = parseFeedWords(rest.filter((w) => w.toLowerCase() !== 'sync'));
    if (!parsed.ok) {
      // The sentence is ours; what the person typed in it is escaped where it is quoted.
      await ctx.reply(`${parsed.error} Nothing was changed.`);
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
    if (!verb) {
      await ctx.reply(
        feed
          ? `This channel’s task feed is *on* (${project}): ${describeChoice(feed.events, feed.filters)}. Thread replies become comments: *${feed.sync ? 'on' : 'off'}*. Change it with ${USAGE}.`
          : `This channel’s task feed is *off*. \`/work feed on\` posts the new tasks of ${project} here (\`/work feed on sync\`: and ${WHAT_SYNC}); ${FEED_WORDS_HELP}.`,
      );
      return;
    }
    // Turning the feed on or off is the admin's setting's (the state above is anyone's to see).
    const permission = await canChangeChannelLinks(ctx);
    if (!permission.allowed) {
      await ctx.reply(permission.message);
      return;
    }
    if (verb === 'off') {
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
    let choice: FeedChoice = { events: parsed.value.events, filters: parsed.value.filters };
    if (parsed.value.assignee) {
      const resolved = await resolveAssignees(ctx, [parsed.value.assignee]);
      if (!resolved.ok) {
        await ctx.reply(
          resolved.error.replace(/([Nn])othing was created/g, '$1othing was changed'),
        );
        return;
      }
      const person = parsed.value.assignee;
      choice = {
        ...choice,
        filters: {
          ...choice.filters,
          assignee: {
            serviceUserId: resolved.ids[0]!,
            ...('slackUserId' in person ? { slackUserId: person.slackUserId } : {}),
          },
        },
      };
    }
    // Plain `/work feed on` keeps what an existing feed hears.
    const chosen = rest.some((w) => w.toLowerCase() !== 'sync');
    const hears = describeChoice(choice.events, choice.filters);
    if (feed && feed.sync === sync && (!chosen || sameChoice(feed, choice))) {
      await ctx.reply(
        `This channel’s task feed is already on (${describeChoice(feed.events, feed.filters)})${sync ? `, and ${WHAT_SYNC}` : ''}; nothing was changed.`,
      );
      return;
    }
    const text = feed
      ? `<@${ctx.userId}> changed this channel’s task feed of ${project}: ${chosen ? hears : describeChoice(feed.events, feed.filters)}${sync ? `; ${WHAT_SYNC}` : ''}.`
      : `<@${ctx.userId}> turned this channel’s task feed on: new tasks of ${project} are posted here, one card each, and what happens to each goes in its thread (${hears})${sync ? `; ${WHAT_SYNC}` : ''}.`;
    // Announced first: a channel Worklink cannot post in would get no feed at all.
    if (await announce(ctx, text)) {
      await ctx.store.channelFeeds.enable(
        ctx.teamId,
        ctx.channelId,
        sync,
        ctx.userId,
        undefined,
        chosen || !feed ? choice : undefined,
      );
    }
  },
};

/** Same kinds and filters, whatever order they were typed or stored in. */
const sameChoice = (a: FeedChoice, b: FeedChoice) => {
  const key = (c: FeedChoice) =>
    JSON.stringify([c.events, Object.entries(c.filters).sort(([x], [y]) => (x < y ? -1 : 1))]);
  return key(a) === key(b);
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
