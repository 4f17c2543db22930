/**
 * The `/work` router. It acks FIRST (nothing before it: no database, no network), then
 * builds the WorkContext and dispatches the first word(s) to a subcommand.
 *
 * Features export their subcommands as plain lists (e.g. `taskCommands` in
 * src/slack/tasks/commands.ts) and src/slack/app.ts hands them all to one router:
 *
 *   const task: Subcommand = {
 *     name: 'task', group: 'Tasks',
 *     usage: 'task <taskId>', example: 'task 65a1f0c2e4b0a1b2c3d4e5f6',
 *     summary: 'show a task card',
 *     async run(ctx, args) {            // ctx: WorkContext, connection already checked
 *       const task = await ctx.work.getTask(args.words[0] ?? '');
 *       await ctx.reply({ text: task.taskName ?? '', blocks: [...] });
 *     },
 *   };
 *
 * Names may be two words ('project new'); the longest match wins, so 'project <id>' and
 * 'project new' can both exist. Subcommands need a connection unless `needsConnection:
 * false`. Anything a `run` throws is answered in one sentence (describeWorkError) — throw
 * WorkApiError freely, but prefer catching it with your own wording (runSafely/replyError).
 * Replies go through ctx.reply (ephemeral by default). The router itself adds `help`.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { replyError } from '../context/error-replies.js';
import { requireConnection, type WorkContext, workContext } from '../context/work-context.js';
import { type HelpEntry, helpMessage, quickHelp } from './help-view.js';
import { closestCommand } from './suggest.js';

export interface SubcommandArgs {
  /** What follows the subcommand's name, trimmed, original case (`<@U123|bob>` kept). */
  text: string;
  /** `text` split on whitespace. */
  words: string[];
  /** The name as registered ('project new'), whichever alias was typed. */
  name: string;
}

export interface Subcommand extends HelpEntry {
  /** First word(s) after /work, lower-case: 'task', 'project new'. */
  name: string;
  aliases?: string[];
  /** Default true: the router answers the "not connected" sentence before `run`. */
  needsConnection?: boolean;
  /** Left out of help (still dispatched). */
  hidden?: boolean;
  /** Only Slack admins may use it; App Home lists it to admins only. */
  adminOnly?: boolean;
  /** Nothing may follow the name: the router answers how to run it instead. */
  takesNothing?: boolean;
  run(ctx: WorkContext, args: SubcommandArgs): Promise<void>;
}

function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

export class WorkRouter {
  private readonly byName = new Map<string, Subcommand>();
  /** Every subcommand in the order given (help and App Home list them so), `help` last. */
  readonly subcommands: readonly Subcommand[];

  /** A name or alias used twice is a programming error (throws). */
  constructor(features: readonly Subcommand[]) {
    const help: Subcommand = {
      name: 'help',
      aliases: ['?'],
      group: 'Workspace',
      usage: 'help [all]',
      example: 'help all',
      summary: 'the five things people do (`help all`: every command)',
      needsConnection: false,
      run: async (ctx, args) => {
        if (args.words[0]?.toLowerCase() === 'all') {
          await ctx.reply(helpMessage(await this.visibleTo(ctx)));
          return;
        }
        await ctx.reply(quickHelp(ctx.userId));
      },
    };
    this.subcommands = [...features, help];
    for (const sub of this.subcommands) {
      const keys = [sub.name, ...(sub.aliases ?? [])].map(normalize);
      for (const key of keys) {
        if (this.byName.has(key)) throw new Error(`/work ${key} is registered twice.`);
        if (key.split(' ').length > 2)
          throw new Error(`/work ${key}: names have one or two words.`);
        this.byName.set(key, sub);
      }
    }
  }

  /** The subcommands help shows (not the hidden ones). */
  visible(): Subcommand[] {
    return this.subcommands.filter((s) => !s.hidden);
  }

  /** Names and aliases of the commands help shows, in order. */
  private visibleNames(): string[] {
    return this.visible().flatMap((s) => [s.name, ...(s.aliases ?? [])]);
  }

  /** The commands `ctx`'s person may use: admin-only ones to Slack admins only. */
  async visibleTo(ctx: WorkContext): Promise<Subcommand[]> {
    const admin = await ctx.deps.users
      .get(ctx.slack, ctx.teamId, ctx.userId)
      .then((u) => Boolean(u.isAdmin || u.isOwner))
      .catch(() => false);
    return this.visible().filter((s) => admin || !s.adminOnly);
  }

  /** The short help, as `/work help` and unknown input answer, after an intro sentence. */
  help(intro?: string, userId = '') {
    return quickHelp(userId, intro);
  }

  /** Finds the subcommand for `text` (longest name first) and what follows it. */
  resolve(text: string): { sub: Subcommand; args: SubcommandArgs } | undefined {
    const trimmed = text.trim();
    const words = trimmed.split(/\s+/).filter(Boolean);
    for (const n of [2, 1]) {
      if (words.length < n) continue;
      const sub = this.byName.get(normalize(words.slice(0, n).join(' ')));
      if (!sub) continue;
      // Cut the typed name off the original text, keeping the rest's spacing and case.
      const rest = trimmed.replace(new RegExp(`^(\\S+\\s+){${n - 1}}\\S+\\s*`), '');
      return {
        sub,
        args: { text: rest, words: rest.split(/\s+/).filter(Boolean), name: sub.name },
      };
    }
    return undefined;
  }

  /** Runs `/work <text>` for a context. Never throws. */
  async dispatch(ctx: WorkContext, text: string): Promise<void> {
    const found = this.resolve(text);
    if (!found) {
      const typed = text.trim();
      const guess = typed ? closestCommand(typed, this.visibleNames()) : undefined;
      if (guess) {
        // Keep what followed the mistyped name: `/work lsit open` → `/work list open`.
        const rest = typed.split(/\s+/).slice(guess.split(' ').length).join(' ');
        const meant = `${guess}${rest ? ` ${rest}` : ''}`.slice(0, 80);
        const sentence = `I don’t know \`/work ${typed.slice(0, 60)}\`. Did you mean \`/work ${meant}\`? (\`/work help all\` lists every command.)`;
        await ctx.reply(sentence).catch((e) => replyError(ctx, e, { action: 'answer' }));
        return;
      }
      const intro = typed ? `I don’t know \`/work ${typed.slice(0, 60)}\`.` : undefined;
      await ctx
        .reply(this.help(intro, ctx.userId))
        .catch((e) => replyError(ctx, e, { action: 'show help' }));
      return;
    }
    const { sub, args } = found;
    try {
      if (sub.takesNothing && args.words.length > 0) {
        await ctx.reply(
          `\`/work ${sub.usage}\` takes nothing after it: run just \`/work ${sub.usage}\`.`,
        );
        return;
      }
      if (sub.needsConnection !== false && !(await requireConnection(ctx))) return;
      await sub.run(ctx, args);
    } catch (err) {
      await replyError(ctx, err, { action: `run \`/work ${sub.name}\`` });
    }
  }

  /** Registers `/work` with Bolt. */
  register(app: App, deps: WorklinkDeps): void {
    app.command('/work', async (args) => {
      // Slack's 3-second window: answer the HTTP request before doing anything else.
      await args.ack();
      // Let pending I/O (other requests waiting for their ack) run before this one's work.
      await new Promise((resolve) => setImmediate(resolve));
      const text = args.command.text ?? '';
      // The reply histogram's label: the subcommand's first word (labels stay few).
      const sub = deps.metrics && this.resolve(text)?.sub.name.split(' ')[0];
      const command = sub ? `/work ${sub}` : text.trim() ? '/work other' : '/work';
      const timer = deps.metrics?.reply.startTimer({ command });
      try {
        const ctx = await workContext(deps, args);
        await this.dispatch(ctx, text);
      } catch (err) {
        deps.logger.error('The /work command failed before it could reply:', err);
      } finally {
        timer?.();
      }
    });
  }
}
