/**
 * The `/work` router. It acks FIRST (nothing before it: no database, no network), then
 * builds the WorkContext and dispatches the first word(s) to a registered subcommand.
 *
 * Feature modules add subcommands at import time:
 *
 *   registerSubcommand({
 *     name: 'task', group: 'Tasks',
 *     usage: 'task <taskId>', example: 'task 65a1f0c2e4b0a1b2c3d4e5f6',
 *     summary: 'show a task card',
 *     async run(ctx, args) {            // ctx: WorkContext, connection already checked
 *       const task = await ctx.work.getTask(args.words[0] ?? '');
 *       await ctx.reply({ text: task.taskName ?? '', blocks: [...] });
 *     },
 *   });
 *
 * Names may be two words ('project new'); the longest match wins, so 'project <id>' and
 * 'project new' can both exist. Subcommands need a connection unless `needsConnection:
 * false`. Anything a `run` throws is answered in one sentence (describeWorkError) — throw
 * WorkApiError freely, but prefer catching it with your own wording (runSafely/replyError).
 * Replies go through ctx.reply (ephemeral by default).
 */
import type { App } from '@slack/bolt';
import { closestCommand } from '../../commands/suggest.js';
import {
  replyError,
  requireConnection,
  type WorkContext,
  type WorklinkDeps,
  workContext,
} from '../../context.js';
import { type HelpEntry, helpMessage } from '../../ui/messages/help.js';

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
  run(ctx: WorkContext, args: SubcommandArgs): Promise<void>;
}

const registry = new Map<string, Subcommand>();
const ordered: Subcommand[] = [];

/** Adds a subcommand. A name or alias used twice is a programming error (throws). */
export function registerSubcommand(sub: Subcommand): void {
  const keys = [sub.name, ...(sub.aliases ?? [])].map(normalize);
  for (const key of keys) {
    if (registry.has(key)) throw new Error(`/work ${key} is registered twice.`);
    if (key.split(' ').length > 2) throw new Error(`/work ${key}: names have one or two words.`);
  }
  for (const key of keys) registry.set(key, sub);
  ordered.push(sub);
}

/** Registered subcommands in registration order (for help, App Home). */
export function subcommands(): readonly Subcommand[] {
  return ordered;
}

/** The help message as shown by `/work help`, optionally after an intro sentence. */
export function workHelp(intro?: string) {
  return helpMessage(
    ordered.filter((s) => !s.hidden),
    intro,
  );
}

/** Names and aliases of the commands help shows, in registration order. */
function visibleNames(): string[] {
  return ordered.filter((s) => !s.hidden).flatMap((s) => [s.name, ...(s.aliases ?? [])]);
}

function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Finds the subcommand for `text` (longest name first) and what follows it. */
export function resolve(text: string): { sub: Subcommand; args: SubcommandArgs } | undefined {
  const trimmed = text.trim();
  const words = trimmed.split(/\s+/).filter(Boolean);
  for (const n of [2, 1]) {
    if (words.length < n) continue;
    const sub = registry.get(normalize(words.slice(0, n).join(' ')));
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
export async function dispatch(ctx: WorkContext, text: string): Promise<void> {
  const found = resolve(text);
  if (!found) {
    const typed = text.trim();
    const guess = typed ? closestCommand(typed, visibleNames()) : undefined;
    if (guess) {
      // Keep what followed the mistyped name: `/work lsit open` → `/work list open`.
      const rest = typed.split(/\s+/).slice(guess.split(' ').length).join(' ');
      const meant = `${guess}${rest ? ` ${rest}` : ''}`.slice(0, 80);
      const sentence = `I don’t know \`/work ${typed.slice(0, 60)}\`. Did you mean \`/work ${meant}\`? (\`/work help\` lists every command.)`;
      await ctx.reply(sentence).catch((e) => replyError(ctx, e, { action: 'answer' }));
      return;
    }
    const intro = typed ? `I don’t know \`/work ${typed.slice(0, 60)}\`.` : undefined;
    await ctx.reply(workHelp(intro)).catch((e) => replyError(ctx, e, { action: 'show help' }));
    return;
  }
  const { sub, args } = found;
  try {
    if (sub.needsConnection !== false && !(await requireConnection(ctx))) return;
    await sub.run(ctx, args);
  } catch (err) {
    await replyError(ctx, err, { action: `run \`/work ${sub.name}\`` });
  }
}

export function register(app: App, deps: WorklinkDeps): void {
  app.command('/work', async (args) => {
    // Slack's 3-second window: answer the HTTP request before doing anything else.
    await args.ack();
    // Let pending I/O (other requests waiting for their ack) run before this one's work.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      const ctx = workContext(deps, args);
      await dispatch(ctx, args.command.text ?? '');
    } catch (err) {
      deps.logger.error('The /work command failed before it could reply:', err);
    }
  });
}
