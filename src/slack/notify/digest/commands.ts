/**
 * `/work digest` (my digest, now) and `/work notify [digest on|off]` (my notification
 * settings; each kind in NOTIFY_KINDS, so more kinds need no new command).
 */
import { isNotifyKind, NOTIFY_KINDS, type NotifyKind } from '../../../store/notify-settings.js';
import type { Subcommand } from '../../commands/router.js';
import { esc } from '../../format/text.js';
import { serviceUserOf } from '../../people/service-user-of.js';
import { dateIn } from '../../tasks/mine/due-groups.js';
import { mineRows } from '../../tasks/mine/load.js';
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
    await ctx.reply(digestMessage(digestRows(await mineRows(ctx, who.ids, today), today), today));
  },
};

const USAGE = '`/work notify digest on` or `/work notify digest off`';

const notifyCommand: Subcommand = {
  name: 'notify',
  group: 'Notifications',
  usage: 'notify [digest on|off]',
  example: 'notify digest off',
  summary: 'show my notification settings, or turn one on or off',
  needsConnection: false,
  async run(ctx, args) {
    const settings = ctx.store.notifySettings;
    const [kind, value, ...more] = args.words.map((w) => w.toLowerCase());
    if (!kind) {
      const all = await settings.all(ctx.teamId, ctx.userId);
      const lines = (Object.keys(NOTIFY_KINDS) as NotifyKind[]).map(
        (k) => `• ${NOTIFY_KINDS[k].label}: *${all[k] ? 'on' : 'off'}* (\`${k}\`)`,
      );
      await ctx.reply(`Your notifications:\n${lines.join('\n')}\nChange one with ${USAGE}.`);
      return;
    }
    if (!isNotifyKind(kind) || (value !== 'on' && value !== 'off') || more.length) {
      const typed = esc(args.text.replace(/`/g, '').slice(0, 60));
      await ctx.reply(`\`${typed}\` is not a setting. Use ${USAGE}; nothing was changed.`);
      return;
    }
    await settings.set(ctx.teamId, ctx.userId, kind, value === 'on');
    await ctx.reply(`${NOTIFY_KINDS[kind].label} is now *${value}* for you.`);
  },
};

export const digestCommands: Subcommand[] = [digestCommand, notifyCommand];
