/**
 * Worklink's logger: pino (Fastify's own logging library). One JSON object per line in
 * production (a log collector reads them), readable lines in a terminal (pino-pretty), and
 * handed to Bolt, the Web API client and the embedded service through Bolt's Logger
 * interface. LOG_LEVEL sets the level once for all of them (src/slack/app.ts passes it to
 * Bolt, which would otherwise reset it to info).
 *
 * Callers log sentences and never pass secrets; an Error is logged as `name: message`, with
 * its stack only at debug level.
 */

import { createRequire } from 'node:module';
import { type Logger, LogLevel } from '@slack/bolt';
import { type DestinationStream, pino } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogLevelName } from './config.js';
import { scrub } from './secrets.js';

export type { Logger };

export interface LoggerOptions {
  /** Default: 'info'. */
  level?: LogLevelName;
  /**
   * 'json': one object per line; 'pretty': `[12:00:00.000] INFO (worklink): …`.
   * Default: pretty when the lines go to a terminal, else JSON.
   */
  format?: 'json' | 'pretty';
  /** Where each line goes, without its newline (tests collect them). Default: stderr. */
  write?: (line: string) => void;
}

/** Bolt's LogLevel for each of ours (the same four words). */
const BOLT_LEVEL: Record<LogLevelName, LogLevel> = {
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
};

/** LOG_LEVEL as Bolt's App option `logLevel` (without it, Bolt resets its logger to info). */
export function boltLogLevel(level: LogLevelName): LogLevel {
  return BOLT_LEVEL[level];
}

function isLevel(level: string): level is LogLevelName {
  return Object.hasOwn(BOLT_LEVEL, level);
}

/**
 * `createLogger('warn')` for the process; `createLogger('debug', (line) => lines.push(line))`
 * in tests (readable lines, no colours).
 */
export function createLogger(
  level: LogLevelName = 'info',
  write?: (line: string) => void,
  format?: LoggerOptions['format'],
): Logger {
  return pinoLogger({ level, write, format });
}

export function pinoLogger(options: LoggerOptions = {}): Logger {
  const terminal = !options.write && Boolean(process.stderr.isTTY);
  const format = options.format ?? (options.write || terminal ? 'pretty' : 'json');
  const base = pino(
    {
      name: 'worklink',
      level: options.level ?? 'info',
      // No pid/hostname in every line: one process, and the collector knows the host.
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination(format, terminal, options.write),
  );
  return asBoltLogger(base);
}

function destination(
  format: 'json' | 'pretty',
  colorize: boolean,
  write: ((line: string) => void) | undefined,
): DestinationStream {
  const out = write ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (format === 'json') {
    return write ? { write: (chunk) => out(chunk.replace(/\n$/, '')) } : pino.destination(2);
  }
  // Loaded only for a terminal (or a test's lines): production's JSON start-up skips it.
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const prettify = prettyFactory({ colorize, ignore: 'pid,hostname' });
  return { write: (chunk) => out(prettify(chunk).replace(/\n$/, '')) };
}

/** Bolt's Logger on a pino logger: `(...msgs)` joined into one message. */
function asBoltLogger(base: pino.Logger): Logger {
  let current = base;
  let level: LogLevelName = isLevel(base.level) ? base.level : 'info';
  const emit = (at: LogLevelName, msgs: unknown[]) => {
    if (!current.isLevelEnabled(at)) return;
    // Every line, whoever wrote it (Bolt, the Web API client, Worklink), without secrets.
    current[at](scrub(msgs.map((m) => text(m, level === 'debug')).join(' ')));
  };
  return {
    debug: (...m) => emit('debug', m),
    info: (...m) => emit('info', m),
    warn: (...m) => emit('warn', m),
    error: (...m) => emit('error', m),
    setLevel: (to) => {
      if (!isLevel(to)) return;
      level = to;
      current.level = to;
    },
    getLevel: () => BOLT_LEVEL[level],
    setName: (name) => {
      current = base.child({ name });
      current.level = level;
    },
  };
}

function text(m: unknown, withStack: boolean): string {
  if (m instanceof Error) return withStack ? (m.stack ?? m.message) : `${m.name}: ${m.message}`;
  if (typeof m === 'string') return m;
  try {
    return JSON.stringify(m);
  } catch {
    return String(m);
  }
}

/**
 * A Web API client's logger that drops the request and result bodies it logs at debug: the
 * OAuth installer's client sends the client secret, codes and refresh tokens in them.
 */
export function withoutRequestBodies(logger: Logger): Logger {
  const bodies = /^http request (?:body|result)/;
  return {
    ...logger,
    debug: (...msgs) => {
      if (typeof msgs[0] === 'string' && bodies.test(msgs[0])) return;
      logger.debug(...msgs);
    },
  };
}
