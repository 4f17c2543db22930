/**
 * Directory subcommands: `/work groups [project]` (the channel's project by default),
 * `/work customers` (companies with their clients) and `/work users` (e-mail, owner/admin).
 */
import type { Subcommand } from '../../commands/router.js';
import { runSafely } from '../../context/error-replies.js';
import { channelProjectId, forgetIfGone, rememberProject } from '../../shared/project-context.js';
import { noProjectHere } from '../../shared/project-here.js';
import { projectArgument } from '../pick.js';
import { customersMessage, groupsMessage, usersMessage } from './directory-lists.js';

const groupsCommand: Subcommand = {
  name: 'groups',
  group: 'Directory',
  usage: 'groups [project]',
  example: 'groups Website relaunch',
  summary: 'list a project’s task groups (this channel’s project when none is named)',
  async run(ctx, args) {
    const fromChannel = !args.text.trim();
    const projectId = fromChannel
      ? await channelProjectId(ctx)
      : await projectArgument(ctx, args.text, { command: 'groups' });
    if (!projectId) {
      if (fromChannel) await ctx.reply(noProjectHere(ctx, { name: '/work groups <project>' }));
      return;
    }
    await runSafely(ctx, { action: 'list the groups', id: projectId }, async () => {
      const [details, groups] = await forgetIfGone(
        ctx,
        projectId,
        Promise.all([ctx.work.getProjectDetails(projectId), ctx.work.listProjectGroups(projectId)]),
      );
      await rememberProject(ctx, projectId, details.Name);
      await ctx.reply(
        groupsMessage({
          projectId,
          projectName: details.Name || projectId,
          groups,
          groupsEnabled: details.IsGroupEnabled,
          fromChannel,
        }),
      );
    });
  },
};

const customersCommand: Subcommand = {
  name: 'customers',
  group: 'Directory',
  usage: 'customers',
  example: 'customers',
  summary: 'list the workspace’s customers and their clients',
  takesNothing: true,
  async run(ctx) {
    await runSafely(ctx, { action: 'list the customers' }, async () => {
      await ctx.reply(customersMessage(await ctx.work.listCustomers()));
    });
  },
};

const usersCommand: Subcommand = {
  name: 'users',
  group: 'Directory',
  usage: 'users',
  example: 'users',
  summary: 'list the workspace’s users with e-mail and owner/admin marks',
  takesNothing: true,
  async run(ctx) {
    await runSafely(ctx, { action: 'list the users' }, async () => {
      const users = await ctx.work.listUsers();
      await ctx.reply(usersMessage({ users, keyOwnerId: ctx.connection?.keyOwnerId }));
    });
  },
};

/** `/work groups`, `customers` and `users`. */
export const directoryCommands: Subcommand[] = [groupsCommand, customersCommand, usersCommand];
