/**
 * `/work notify`: my notification settings — each kind in NOTIFY_KINDS on or off, and quiet
 * hours (`/work notify quiet 20:00-08:00`, `quiet off`) in my Slack time zone. The same
 * settings are checkboxes in App Home (home/publish.ts).
 */
import { isNotifyKind, NOTIFY_KINDS, type NotifyKind } from '../../store/index.js';
import type { Subcommand } from '../commands/router.js';
import type { WorkContext } from '../context/work-context.js';
import { esc, plural } from '../format/text.js';
import { formatQuietHours, parseQuietHours, type QuietWindow, quietUntil } from './quiet-hours.js';

const KINDS = Object.keys(NOTIFY_KINDS) as NotifyKind[];
const USAGE = `\`/work notify <${KINDS.join('|')}> <on|off>\` or \`/work notify quiet 20:00-08:00\` (\`quiet off\`)`;

/** The settings as lines, for `/work notify` (and the sentence after a change). */
export async function settingsText(ctx: Pick<WorkContext, 'store' | 'teamId' | 'userId'>) {
  const all = await ctx.store.notifySettings.all(ctx.teamId, ctx.userId);
  const quiet = await ctx.store.notifySettings.quietHours(ctx.teamId, ctx.userId);
  const lines = KINDS.map(
    (k) => `• ${NOTIFY_KINDS[k].label}: *${all[k] ? 'on' : 'off'}* (\`${k}\`)`,
  );
  lines.push(
    quiet
      ? `• Quiet hours: *${quiet}* your time; DMs wait until they end (\`quiet\`)`
      : '• Quiet hours: *off* (`quiet`)',
  );
  return lines.join('\n');
}

export const notifyCommand: Subcommand = {
  name: 'notify',
  group: 'Notifications',
  usage: `notify [${KINDS.join('|')} on|off] [quiet 20:00-08:00|off]`,
  example: 'notify comments off',
  summary: 'show my notification settings, turn one on or off, or set quiet hours',
  needsConnection: false,
  async run(ctx, args) {
    const settings = ctx.store.notifySettings;
    const [kind, value, ...more] = args.words.map((w) => w.toLowerCase());
    const refuse = () => {
      const typed = esc(args.text.replace(/`/g, '').slice(0, 60));
      return ctx.reply(`\`${typed}\` is not a setting. Use ${USAGE}; nothing was changed.`);
    };
    if (!kind) {
      await ctx.reply(`Your notifications:\n${await settingsText(ctx)}\nChange one with ${USAGE}.`);
      return;
    }
    if (kind === 'quiet') {
      const rest = args.words.slice(1).join(' ');
      if (rest.toLowerCase() === 'off') {
        await settings.setQuietHours(ctx.teamId, ctx.userId, undefined);
        const released = await releaseHeld(ctx, undefined);
        await ctx.reply(
          `Quiet hours are now *off*: DMs come as they happen.${released ? ` The ${plural(released, 'DM')} held for you ${released === 1 ? 'comes' : 'come'} now.` : ''}`,
        );
        return;
      }
      const window = parseQuietHours(rest);
      if (!window) {
        await ctx.reply(
          `\`${esc(rest.replace(/`/g, '').slice(0, 40)) || ' '}\` is not a time window. Use \`/work notify quiet 20:00-08:00\` (from-to, 24-hour, your time zone) or \`/work notify quiet off\`; nothing was changed.`,
        );
        return;
      }
      const shown = formatQuietHours(window);
      await settings.setQuietHours(ctx.teamId, ctx.userId, shown);
      await releaseHeld(ctx, window);
      await ctx.reply(
        `Quiet hours are now *${shown}* in your time zone (${esc(await ctx.userTimeZone())}). DMs that come then wait until ${shown.slice(6)}; several come as one message.`,
      );
      return;
    }
    if (!isNotifyKind(kind) || (value !== 'on' && value !== 'off') || more.length) {
      await refuse();
      return;
    }
    await settings.set(ctx.teamId, ctx.userId, kind, value === 'on');
    await ctx.reply(`${NOTIFY_KINDS[kind].label} is now *${value}* for you.`);
  },
};

/**
 * DMs already held follow the new quiet hours: released at once when the hours are off or no
 * longer cover this moment, else at the new end. Returns how many are released now.
 */
async function releaseHeld(ctx: WorkContext, window: QuietWindow | undefined): Promise<number> {
  const now = ctx.deps.clock?.() ?? Date.now();
  const until = window ? quietUntil(window, await ctx.userTimeZone(), now) : undefined;
  const held = await ctx.store.heldDms.reschedule(ctx.teamId, ctx.userId, until ?? now);
  if (held && until === undefined) await ctx.deps.quietHours?.runOnce();
  return until === undefined ? held : 0;
}
