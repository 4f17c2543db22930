/**
 * `/work digest` (my digest, now), listed with `/work notify` (notify-command.ts) under
 * Notifications.
 */
import type { Subcommand } from '../commands/router.js';
import { notifyCommand } from '../notify/notify-command.js';
import { serviceUserOf } from '../people/service-user-of.js';
import { dateIn } from '../tasks/mine/due-groups.js';
import { mineRows } from '../tasks/mine/load.js';
import { digestMessage, digestRows } from './message.js';

const digestCommand: Subcommand = {
  name: 'digest',
  group: 'Notifications',
  usage: 'digest',
  example: 'digest',
  summary: 'show my daily digest now: overdue, due today and tomorrow',
  async run(ctx) {
    const who = await serviceUserOf(ctx, ctx.userId);
    if (!who.ok) {
      await ctx.reply(who.problem);
      return;
    }
    const today = dateIn(await ctx.userTimeZone(), ctx.deps.clock?.() ?? Date.now());
    await ctx.reply(
      digestMessage(digestRows(await mineRows(ctx, who.ids, today, ctx.deps.links), today), today),
    );
  },
};

export const digestCommands: Subcommand[] = [digestCommand, notifyCommand];
