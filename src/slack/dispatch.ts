/**
 * One dispatcher instead of Bolt's listener chains. Bolt runs every registered listener's
 * middleware chain (its type filter and constraint matcher, each call copying the listener
 * arguments) for every request, before the one that matches can ack: with ~33 listeners that
 * was most of Worklink's own cost before a command's ack (issue 25: 0.107 ms against 0.018,
 * and Bolt itself slower per listener). Here features register on `registrar` exactly as on
 * the App; the listeners go into one table, and a single global middleware, last in the
 * chain, finds the matching ones with plain comparisons (Bolt's matching rules: type
 * filter, command name, event type, action_id / block_id / callback_id / type constraints)
 * and runs them as Bolt would: all that match, at once, errors to the app's error handler.
 * A request none of them matches goes on to Bolt's own listeners (workflow functions).
 */
import type { AllMiddlewareArgs, AnyMiddlewareArgs, App, Context } from '@slack/bolt';

type Pattern = string | RegExp;
type Kind = 'action' | 'command' | 'event' | 'options' | 'shortcut' | 'view';
type Listener = (args: AnyMiddlewareArgs & AllMiddlewareArgs) => Promise<unknown> | unknown;
type Constraints = Partial<Record<'action_id' | 'block_id' | 'callback_id' | 'type', Pattern>>;

interface Entry {
  kind: Kind;
  /** The command name or event type (command, event); the constraints otherwise. */
  name?: Pattern;
  constraints: Constraints;
  listener: Listener;
}

/** The request's kind, as Bolt's only* filters tell it (which listener argument is set). */
function kindOf(args: object): Kind | undefined {
  for (const kind of ['command', 'action', 'view', 'options', 'shortcut', 'event'] as const) {
    if (field(args, kind) !== undefined) return kind;
  }
  return undefined;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const field = (o: unknown, key: string): unknown =>
  typeof o === 'object' && o !== null ? Reflect.get(o, key) : undefined;

/** `value` against `pattern` (a RegExp's match is kept in context, as Bolt keeps it). */
function fits(pattern: Pattern, value: string | undefined, context: Context, key: string): boolean {
  if (value === undefined) return false;
  if (typeof pattern === 'string') return value === pattern;
  const m = value.match(pattern);
  if (m) context[key] = m;
  return m !== null;
}

/** Bolt's matchConstraints, without a middleware call. */
function meets(c: Constraints, payload: unknown, body: unknown, context: Context): boolean {
  if (c.block_id !== undefined || c.action_id !== undefined) {
    if (text(field(payload, 'action_id')) === undefined) return false;
    const block = text(field(payload, 'block_id'));
    if (c.block_id !== undefined && !fits(c.block_id, block, context, 'blockIdMatches')) {
      return false;
    }
    const action = text(field(payload, 'action_id'));
    if (c.action_id !== undefined && !fits(c.action_id, action, context, 'actionIdMatches')) {
      return false;
    }
  }
  if (c.callback_id !== undefined) {
    const view = field(body, 'view');
    const callbackId = text(
      view !== undefined ? field(view, 'callback_id') : field(body, 'callback_id'),
    );
    if (!fits(c.callback_id, callbackId, context, 'callbackIdMatches')) return false;
  }
  return c.type === undefined || field(body, 'type') === c.type;
}

function matches(entry: Entry, args: AnyMiddlewareArgs & AllMiddlewareArgs): boolean {
  const { context } = args;
  switch (entry.kind) {
    case 'command': {
      const name = text(field(field(args, 'command'), 'command'));
      return entry.name !== undefined && fits(entry.name, name, context, 'commandMatches');
    }
    case 'event': {
      const type = text(field(field(args, 'event'), 'type'));
      return entry.name !== undefined && fits(entry.name, type, context, 'eventTypeMatches');
    }
    default:
      return meets(entry.constraints, args.payload, args.body, context);
  }
}

/** How Bolt turns each registration's first argument into constraints. */
function constraintsOf(kind: Kind, first: unknown): Constraints {
  const pattern = typeof first === 'string' || first instanceof RegExp ? first : undefined;
  if (pattern === undefined) {
    const c: Constraints = {};
    for (const key of ['action_id', 'block_id', 'callback_id', 'type'] as const) {
      const v = field(first, key);
      if (typeof v === 'string' || v instanceof RegExp) c[key] = v;
    }
    return c;
  }
  if (kind === 'view') return { callback_id: pattern, type: 'view_submission' };
  if (kind === 'shortcut') return { callback_id: pattern };
  return { action_id: pattern };
}

export class ListenerTable {
  private readonly entries: Entry[] = [];

  /**
   * What features register on: the App itself but for the listener methods, which fill this
   * table. One listener per registration (a programming error otherwise, told at start).
   */
  registrarFor(app: App): App {
    const add =
      (kind: Kind) =>
      (first: unknown, ...listeners: Listener[]): void => {
        const [listener] = listeners;
        if (listeners.length !== 1 || !listener) {
          throw new Error(`A ${kind} listener takes one function here (src/slack/dispatch.ts).`);
        }
        const named = kind === 'command' || kind === 'event';
        this.entries.push({
          kind,
          ...(named && (typeof first === 'string' || first instanceof RegExp)
            ? { name: first }
            : {}),
          constraints: named ? {} : constraintsOf(kind, first),
          listener,
        });
      };
    return Object.assign(Object.create(app), {
      action: add('action'),
      command: add('command'),
      event: add('event'),
      options: add('options'),
      shortcut: add('shortcut'),
      view: add('view'),
      // Kept by Bolt (workflow functions have their own handling there).
      function: app.function.bind(app),
    });
  }

  /** The global middleware that dispatches (register it last: after the other middleware). */
  readonly dispatch = async (args: AnyMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    const kind = kindOf(args);
    const found = kind ? this.entries.filter((e) => e.kind === kind && matches(e, args)) : [];
    if (found.length === 0) {
      await args.next();
      return;
    }
    const noNext = async () => {};
    const results = await Promise.allSettled(
      found.map(async (e) => e.listener({ ...args, next: noNext })),
    );
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Several listeners failed.');
  };

  get size(): number {
    return this.entries.length;
  }
}
