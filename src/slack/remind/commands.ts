/**
 * `/work remind <task> <when>` sets a reminder (when.ts reads the time in the person's Slack
 * time zone); `/work remind` lists the person's pending reminders, each with Cancel. The
 * reminder fires as one DM (scheduler.ts). Buttons: Cancel on the list, and "Remind me"
 * choices (in an hour, tomorrow morning, next week) wherever a task's overflow offers them.
 */
import type { App } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { Subcommand } from '../commands/router.js';
import type { WorklinkDeps } from '../context/deps.js';
import { onAction, pressedValue } from '../context/on-action.js';
import type { WorkContext } from '../context/work-context.js';
import { formatMoment } from '../format/date-text.js';
import { cut, esc } from '../format/text.js';
import { findTask, parseTaskRef } from '../tasks/find-task.js';
import { ACTION } from '../ui/block-ids.js';
import { localHour, nextWeek, splitTaskAndTime } from './when.js';

/** Reminders one person may have waiting. */
export const MAX_PENDING = 50;

const remindCommand: Subcommand = {
  name: 'remind',
  group: 'Notifications',
  usage: 'remind [<task> <when>]',
  example: 'remind #12 tomorrow 9am',
  summary:
    'DM me about a task at a time (`in 1 hour`, `tomorrow 9am`, `next week`); alone: my reminders, to cancel',
  async run(ctx, args) {
    if (!args.text.trim()) return listReminders(ctx);
    const tz = await ctx.userTimeZone();
    const now = ctx.deps.clock?.() ?? Date.now();
    const split = splitTaskAndTime(args.text, tz, now);
    if ('error' in split) {
      await ctx.reply(`${split.error} Nothing was set.`);
      return;
    }
    const ref = parseTaskRef(split.task);
    if (!ref) {
      await ctx.reply('Say which task, like `/work remind #12 tomorrow 9am`. Nothing was set.');
      return;
    }
    const found = await findTask(ctx, ref);
    if (found.kind === 'none') return void (await ctx.reply(`${found.message} Nothing was set.`));
    if (found.kind === 'many') {
      const names = found.tasks
        .slice(0, 5)
        .map((t) => `${t.number !== undefined ? `#${t.number} ` : ''}${esc(t.name)}`)
        .join(', ');
      await ctx.reply(
        `Several tasks match (${names}); name one by its number, like \`/work remind #12 tomorrow 9am\`. Nothing was set.`,
      );
      return;
    }
    await setReminder(ctx, found.taskId, split.at, found.task?.name);
  },
};

/** Sets a reminder for the person of `ctx`, and says when it will come. */
export async function setReminder(
  ctx: WorkContext,
  taskId: string,
  at: number,
  name?: string,
): Promise<void> {
  const pending = await ctx.store.reminders.pending(ctx.teamId, ctx.userId);
  if (pending.length >= MAX_PENDING) {
    await ctx.reply(
      `You have ${MAX_PENDING} reminders waiting already; cancel some with \`/work remind\`. Nothing was set.`,
    );
    return;
  }
  const now = ctx.deps.clock?.() ?? Date.now();
  await ctx.store.reminders.add(
    { teamId: ctx.teamId, slackUserId: ctx.userId, taskId, dueAt: at },
    now,
  );
  const tz = await ctx.userTimeZone();
  const what = name ? `*${esc(cut(name, 120))}*` : `task \`${taskId}\``;
  await ctx.reply(
    `⏰ I will remind you of ${what} on ${formatMoment(at, tz)}, in a DM. \`/work remind\` lists your reminders.`,
  );
}

async function listReminders(ctx: WorkContext): Promise<void> {
  const pending = await ctx.store.reminders.pending(ctx.teamId, ctx.userId);
  if (pending.length === 0) {
    await ctx.reply(
      'You have no reminders waiting. Set one with `/work remind #12 tomorrow 9am`, or "Remind me" on a task.',
    );
    return;
  }
  const tz = await ctx.userTimeZone();
  const tasks = new Map(
    (
      await ctx.store.taskIndex.getMany(
        ctx.teamId,
        pending.map((r) => r.taskId),
      )
    ).map((t) => [t.taskId, t]),
  );
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*Your reminders* (${pending.length})` } },
    ...pending.slice(0, 40).map((r): KnownBlock => {
      const t = tasks.get(r.taskId);
      const name = t
        ? `${t.number !== undefined ? `#${t.number} ` : ''}*${esc(cut(t.name, 120))}*`
        : `\`${r.taskId}\``;
      return {
        type: 'section',
        text: { type: 'mrkdwn', text: `${name} — ${formatMoment(r.dueAt, tz)}` },
        accessory: {
          type: 'button',
          action_id: ACTION.reminderCancel,
          text: { type: 'plain_text', text: 'Cancel' },
          value: r.id,
        },
      };
    }),
  ];
  await ctx.reply({ text: `You have ${pending.length} reminders waiting.`, blocks });
}

export function registerReminders(app: App, deps: WorklinkDeps): void {
  onAction(app, deps, ACTION.reminderCancel, async (ctx, args) => {
    const id = pressedValue(args);
    const cancelled = await ctx.store.reminders.cancel(ctx.teamId, ctx.userId, id);
    await ctx.reply(
      cancelled
        ? 'Reminder cancelled.'
        : 'That reminder is not waiting any more (sent or cancelled already).',
    );
  });
  onAction(app, deps, ACTION.remindMe, async (ctx, args) => {
    const [choice, taskId] = selectedValue(args.action).split(':');
    if (!choice || !taskId) return;
    const tz = await ctx.userTimeZone();
    const now = ctx.deps.clock?.() ?? Date.now();
    const at =
      choice === 'hour'
        ? now + 3_600_000
        : choice === 'morning'
          ? localHour(now, tz, 1)
          : choice === 'week'
            ? nextWeek(now, tz)
            : undefined;
    if (at === undefined) return;
    const name = (await ctx.store.taskIndex.get(ctx.teamId, taskId))?.name;
    await setReminder(ctx, taskId, at, name);
  });
}

/** An overflow's selected option value (or a button's value). */
function selectedValue(action: unknown): string {
  if (typeof action !== 'object' || action === null) return '';
  if ('selected_option' in action) {
    const o = action.selected_option;
    if (typeof o === 'object' && o !== null && 'value' in o && typeof o.value === 'string') {
      return o.value;
    }
  }
  return 'value' in action && typeof action.value === 'string' ? action.value : '';
}

export const remindCommands: Subcommand[] = [remindCommand];
