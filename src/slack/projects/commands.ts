/**
 * Project subcommands: `/work project <id>` (card), `project new` and `project edit <id>`
 * (modals), `project link <id>` / `project unlink` (the channel's default project).
 * `projectCommands`, handed to the router by src/slack/app.ts; the router has checked the
 * connection.
 */
import { idArgument } from '../commands/id-argument.js';
import type { Subcommand, SubcommandArgs } from '../commands/router.js';
import { runSafely } from '../context/error-replies.js';
import { canChangeChannelLinks } from '../context/permissions.js';
import type { WorkContext } from '../context/work-context.js';
import { esc, plainText } from '../format/text.js';
import { channelProjectId, knownName } from '../shared/project-context.js';
import { noProjectHere } from '../shared/project-here.js';
import { announceInChannel } from './announce.js';
import { replyWithProjectCard } from './card/reply.js';
import { openProjectCreateModal, openProjectEditModal } from './form/open.js';
import { linkProject } from './link.js';

const EXAMPLE_ID = '65a1f0c2e4b0a1b2c3d4e5f6';

/**
 * The project a command names: its one argument, else (when `orChannel`) the channel's
 * default project. Answers the helpful sentence itself and returns undefined when there is
 * none or it cannot be an id.
 */
function projectArg(
  ctx: WorkContext,
  args: SubcommandArgs,
  usage: string,
  orChannel: boolean,
): Promise<string | undefined> {
  return idArgument(ctx, args, {
    kind: 'project',
    usage,
    only: true,
    otherwise: orChannel ? () => channelProjectId(ctx) : undefined,
    missing: orChannel
      ? noProjectHere(ctx, { name: `/work ${usage}` })
      : `Name the project: \`/work ${usage}\`. Project ids are shown on project cards.`,
  });
}

const projectCommand: Subcommand = {
  name: 'project',
  group: 'Projects',
  usage: 'project <projectId>',
  example: `project ${EXAMPLE_ID}`,
  summary: 'show a project card (this channel’s project when no id is given)',
  async run(ctx, args) {
    const id = await projectArg(ctx, args, 'project <projectId>', true);
    if (!id) return;
    await runSafely(ctx, { action: 'load the project', id }, () => replyWithProjectCard(ctx, id));
  },
};

const projectNewCommand: Subcommand = {
  name: 'project new',
  group: 'Projects',
  usage: 'project new [name]',
  example: 'project new Website relaunch',
  summary: 'create a project (opens a form: name, customer, dates, template)',
  async run(ctx, args) {
    // As typed: Slack escapes &, < and > in command text and sends mentions as markup.
    await openProjectCreateModal(ctx, plainText(args.text));
  },
};

const projectEditCommand: Subcommand = {
  name: 'project edit',
  group: 'Projects',
  usage: 'project edit <projectId>',
  example: `project edit ${EXAMPLE_ID}`,
  summary: 'edit a project: name, customer, dates, description, features, default priority',
  async run(ctx, args) {
    const id = await projectArg(ctx, args, 'project edit <projectId>', true);
    if (!id) return;
    await openProjectEditModal(ctx, id);
  },
};

const projectLinkCommand: Subcommand = {
  name: 'project link',
  group: 'Projects',
  usage: 'project link <projectId>',
  example: `project link ${EXAMPLE_ID}`,
  summary: 'make a project this channel’s default project',
  async run(ctx, args) {
    const id = await projectArg(ctx, args, 'project link <projectId>', false);
    if (!id) return;
    await linkProject(ctx, id);
  },
};

const projectUnlinkCommand: Subcommand = {
  name: 'project unlink',
  group: 'Projects',
  usage: 'project unlink',
  example: 'project unlink',
  summary: 'remove this channel’s default project',
  takesNothing: true,
  async run(ctx) {
    const channelId = ctx.channelId;
    const linked = channelId
      ? await ctx.store.channelProjects.get(ctx.teamId, channelId)
      : undefined;
    if (!channelId || !linked) {
      await ctx.reply('This channel has no default project, so there is nothing to unlink.');
      return;
    }
    const permission = await canChangeChannelLinks(ctx);
    if (!permission.allowed) {
      await ctx.reply(permission.message);
      return;
    }
    await ctx.store.channelProjects.unlink(ctx.teamId, channelId);
    const name = esc(await knownName(ctx, linked.projectId));
    await announceInChannel(
      ctx,
      `<@${ctx.userId}> removed this channel’s default project (it was *${name}*); \`/work add\` here now needs a project named with \`in:\`.`,
      `<#${channelId}> no longer has a default project (it was *${name}*). Nothing was changed in the work-management service.`,
    );
  },
};

/** The project subcommands, in the order help lists them. */
export const projectCommands: Subcommand[] = [
  projectCommand,
  projectNewCommand,
  projectEditCommand,
  projectLinkCommand,
  projectUnlinkCommand,
];
