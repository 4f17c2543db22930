/**
 * `/work previews [everywhere|linked|off]` (admins to change): where links to the service's
 * tasks and projects unfurl — everywhere the app is (the default), only in channels linked to
 * the task's project, or nowhere.
 */
import { UNFURL_MODES, type UnfurlMode } from '../../store/index.js';
import type { Subcommand } from '../commands/router.js';
import { requireAdmin } from '../context/permissions.js';

const SAYS: Record<UnfurlMode, string> = {
  everywhere: 'Links to tasks and projects show a preview in every conversation Worklink is in.',
  linked:
    'Links to tasks and projects show a preview only in channels linked to the task’s project.',
  off: 'Links to tasks and projects show no preview.',
};

export const previewsCommand: Subcommand = {
  name: 'previews',
  group: 'Workspace',
  usage: 'previews [everywhere|linked|off]',
  example: 'previews linked',
  summary: 'show or choose where task links unfurl as previews (admins choose)',
  async run(ctx, args) {
    const typed = args.text.trim().toLowerCase();
    if (!typed) {
      const mode = await ctx.store.unfurlSettings.get(ctx.teamId);
      await ctx.reply(
        `${SAYS[mode]} Admins change it with \`/work previews everywhere|linked|off\`.`,
      );
      return;
    }
    const mode = UNFURL_MODES.find((m) => m === typed);
    if (!mode) {
      await ctx.reply(
        'Say `everywhere`, `linked` or `off`, like `/work previews linked`. Nothing was changed.',
      );
      return;
    }
    const permission = await requireAdmin(
      ctx,
      'Only workspace admins can change where previews show. Nothing was changed.',
    );
    if (!permission.allowed) {
      await ctx.reply(permission.message);
      return;
    }
    await ctx.store.unfurlSettings.set(ctx.teamId, mode, ctx.userId);
    await ctx.reply(`Done. ${SAYS[mode]}`);
  },
};
