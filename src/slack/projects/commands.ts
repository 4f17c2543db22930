/**
 * Project subcommands: `/work project <project>` (card), `project new` and `project edit
 * <project>` (modals), `project link <project>` / `project unlink` (the channel's default
 * project). A project is named by words of its name or its id (find-project.ts).
 * `projectCommands`, handed to the router by src/slack/app.ts; the router has checked the
 * connection.
 */
import type { Subcommand, SubcommandArgs } from '../commands/router.js';
import { runSafely } from '../context/error-replies.js';
import { canChangeChannelLinks } from '../context/permissions.js';
import type { WorkContext } from '../context/work-context.js';
import { esc, plainText } from '../format/text.js';
import { channelProjectId, knownName } from '../shared/project-context.js';
import { noProjectHere } from '../shared/project-here.js';
import { announceInChannel } from './announce.js';
import { replyWithProjectCard } from './card/reply.js';
import { projectsCommand } from './directory/projects-command.js';
import { openProjectCreateModal, openProjectEditModal } from './form/open.js';
import { linkProject } from './link.js';
import { type PickableCommand, projectArgument } from './pick.js';

const EXAMPLE = 'Website relaunch';

/**
 * The project a command names: words of its name or its id, else (when `orChannel`) the
 * channel's default project. Answers the helpful sentence (or a pick list) itself and
 * returns undefined when there is no one project.
 */
async function projectArg(
  ctx: WorkContext,
  args: SubcommandArgs,
  command: PickableCommand,
  orChannel: boolean,
): Promise<string | undefined> {
  const usage = `${command} <project>`;
  if (!args.text.trim()) {
    const here = orChannel ? await channelProjectId(ctx) : undefined;
    if (here) return here;
    await ctx.reply(
      orChannel
        ? noProjectHere(ctx, { name: `/work ${usage}` })
        : `Name the project: \`/work ${usage}\` with words of its name (or its id). \`/work projects\` lists them.`,
    );
    return undefined;
  }
  return projectArgument(ctx, args.text, { command });
}

const projectCommand: Subcommand = {
  name: 'project',
  group: 'Projects',
  usage: 'project <project>',
  example: `project ${EXAMPLE}`,
  summary: 'show a project card (this channel’s project when none is named)',
  async run(ctx, args) {
    const id = await projectArg(ctx, args, 'project', true);
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
  usage: 'project edit <project>',
  example: `project edit ${EXAMPLE}`,
  summary: 'edit a project: name, customer, dates, description, features, default priority',
  async run(ctx, args) {
    const id = await projectArg(ctx, args, 'project edit', true);
    if (!id) return;
    await openProjectEditModal(ctx, id);
  },
};

const projectLinkCommand: Subcommand = {
  name: 'project link',
  group: 'Projects',
  usage: 'project link <project>',
  example: `project link ${EXAMPLE}`,
  summary: 'make a project this channel’s default project',
  async run(ctx, args) {
    const id = await projectArg(ctx, args, 'project link', false);
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
  projectsCommand,
  projectCommand,
  projectNewCommand,
  projectEditCommand,
  projectLinkCommand,
  projectUnlinkCommand,
];
